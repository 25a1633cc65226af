import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { TreeValidationError } from './tree-validation-error.js';

describe('TreeValidationError.isInstance', () => {
  it('is true for a tree validation error, also from another copy of the package', () => {
    const error = new TreeValidationError([{ nodeId: 2, message: 'bad', fix: 'fix it' }]);
    expect(TreeValidationError.isInstance(error)).toBe(true);
    const copy = Object.assign(new TreeAgentError('TREE_VALIDATION', 'copy'), { problems: [] });
    expect(TreeValidationError.isInstance(copy)).toBe(true);
  });

  it('is false for any other Tree Agent error (a module that fails to load is not a problem list)', () => {
    const other = new TreeAgentError('CALLBACK_ERROR', 'the callback threw');
    expect(TreeValidationError.isInstance(other)).toBe(false);
    expect(TreeAgentError.isInstance(other)).toBe(true);
    expect(TreeValidationError.isInstance(new Error('plain'))).toBe(false);
  });
});
