import { TreeAgentError } from '../errors/tree-agent-error.js';

/**
 * The reason a promise rejects with, whatever it is; throws (failing the test) if the promise
 * resolves instead. For errors that are not `TreeAgentError`s, such as an abort signal's reason.
 *
 * @example
 * expect(await rejectionReason(model.generate({ ...request, signal }))).toBe(signal.reason);
 */
export async function rejectionReason(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/**
 * The `TreeAgentError` a promise rejects with, to assert its `code`, message and details; throws
 * (failing the test) if the promise resolves, and rethrows any other error as it is.
 *
 * @example
 * const error = await rejection(agent.send('s1', 'loop forever'));
 * expect(error.code).toBe('LOOP');
 */
export async function rejection(promise: Promise<unknown>): Promise<TreeAgentError> {
  const error = await rejectionReason(promise);
  if (TreeAgentError.isInstance(error)) return error;
  throw error;
}
