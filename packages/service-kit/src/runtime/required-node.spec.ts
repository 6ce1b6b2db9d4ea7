import { describe, expect, it } from 'vitest';
import { REQUIRED_NODE_MAJOR, unsupportedNodeMessage } from './required-node.js';

describe('unsupportedNodeMessage', () => {
  it('accepts the required major and later ones', () => {
    expect(unsupportedNodeMessage(`${REQUIRED_NODE_MAJOR}.0.0`)).toBeNull();
    expect(unsupportedNodeMessage(`${REQUIRED_NODE_MAJOR}.10.0`)).toBeNull();
    expect(unsupportedNodeMessage(`${REQUIRED_NODE_MAJOR + 1}.1.0`)).toBeNull();
  });

  it('refuses an older major, naming the version it needs and the one it got', () => {
    const message = unsupportedNodeMessage('20.20.2');
    expect(message).toContain(`Node.js ${REQUIRED_NODE_MAJOR}`);
    expect(message).toContain('20.20.2');
    expect(message).toContain('runtime/node_modules/.bin/node');
  });

  it('refuses a version it cannot read', () => {
    expect(unsupportedNodeMessage('')).not.toBeNull();
  });
});
