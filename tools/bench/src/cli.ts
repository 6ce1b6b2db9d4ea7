/**
 * What scripts/bench.sh runs around the per-app benchmarks:
 *   node tools/bench/dist/cli.js generator   measure the generator once ($BENCH_GENERATOR_FILE)
 *   node tools/bench/dist/cli.js summary     one table of every row the benchmarks appended ($BENCH_RESULTS_FILE)
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { GENERATOR_FILE_ENV, generatorLimit, type GeneratorLimit } from './generator.js';
import { describeGenerator, describeMachine, describeSettings } from './machine.js';
import { formatResults, readResults, RESULTS_FILE_ENV } from './report.js';
import { loadSettings } from './settings.js';
import { createWorkspace } from './workspace.js';

const log = (line = ''): void => void process.stdout.write(`${line}\n`);

async function generator(): Promise<void> {
  if (!process.env[GENERATOR_FILE_ENV])
    throw new Error(`${GENERATOR_FILE_ENV} must name the file to keep the result in`);
  const settings = loadSettings();
  const workspace = await createWorkspace('generator');
  try {
    log(describeMachine());
    log(describeSettings(settings));
    log('measuring the load generator…');
    const { limit } = await generatorLimit(settings, workspace);
    log(describeGenerator(limit));
  } finally {
    await workspace.remove();
  }
}

async function summary(): Promise<void> {
  const file = process.env[RESULTS_FILE_ENV];
  if (!file) throw new Error(`${RESULTS_FILE_ENV} must name the file the benchmarks appended to`);
  const results = await readResults(file);
  if (results.length === 0) return;
  log('== Pawlink against its ceilings');
  log(describeMachine());
  const generatorFile = process.env[GENERATOR_FILE_ENV];
  if (generatorFile && existsSync(generatorFile))
    log(describeGenerator(JSON.parse(await readFile(generatorFile, 'utf8')) as GeneratorLimit));
  for (const line of formatResults(results)) log(line);
}

const commands: Record<string, () => Promise<void>> = { generator, summary };
const command = commands[process.argv[2] ?? ''];
if (!command) {
  process.stderr.write('usage: node tools/bench/dist/cli.js generator|summary\n');
  process.exitCode = 2;
} else {
  try {
    await command();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
