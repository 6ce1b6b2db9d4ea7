#!/usr/bin/env node
import '@pawlink/service-kit/check-node';
import { CommanderError } from 'commander';
import { ConfigError } from '@pawlink/service-kit';
import { dropOutputOfClosedPipes } from './closed-pipes.js';
import { buildProgram } from './program.js';
import { CommandFailure } from '@pawlink/service-kit/cli';

dropOutputOfClosedPipes();
const { program, closeContext } = buildProgram();
try {
  await program.parseAsync(process.argv);
  process.exitCode = 0;
} catch (error) {
  if (error instanceof CommanderError) {
    // help and version are not failures; everything else commander rejects is a usage error
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  } else if (error instanceof CommandFailure) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
} finally {
  await closeContext();
}
