// The test process of owned-process.spec.ts: owns one idle child (its output appended to the file
// named by argv[2]), prints that child's pid, and waits to be signalled. Node runs the TypeScript
// module as it is (type stripping), so the spec needs no build.
import { spawnOwned } from './owned-process.ts';

const child = spawnOwned(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], process.argv[2]);
child.once('spawn', () => process.stdout.write(`${child.pid}\n`));
setInterval(() => {}, 60_000);
