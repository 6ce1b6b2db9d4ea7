/**
 * Imported first by every process entry point: a start under an older Node stops here, with a
 * message naming the version it needs, before anything else is loaded.
 */
import { unsupportedNodeMessage } from './required-node.js';

const problem = unsupportedNodeMessage(process.versions.node);
if (problem !== null) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
