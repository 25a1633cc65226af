// @vitest-environment happy-dom
/** @jsxImportSource preact */
import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { AppContext, type AppServices } from '../app/app-context';
import { ErrorDetails } from './error-details';

/** The debug view's error line (issue #15 point 7), rendered in a DOM (happy-dom). */
describe('ErrorDetails', () => {
  const services = { nodeLabel: (id: number) => `node #${id}` } as unknown as AppServices;

  it('shows the code, the callback and node, the message and the frame in the tree file', () => {
    const root = document.createElement('div');
    render(
      <AppContext.Provider value={services}>
        <ErrorDetails
          error={{
            code: 'CALLBACK_ERROR',
            message: 'The "before" callback of node 3 threw: stock service unreachable',
            nodeId: 3,
            callback: 'before',
            frame: 'checkStock (examples/tree.ts:12:9)',
          }}
          onNode={() => {}}
        />
      </AppContext.Provider>,
      root,
    );
    expect(root.textContent).toBe(
      'CALLBACK_ERROR in the "before" callback of node #3: The "before" callback of node 3 threw: stock service unreachable at checkStock (examples/tree.ts:12:9)',
    );
  });

  it('shows what it has when there is no node nor frame', () => {
    const root = document.createElement('div');
    render(
      <AppContext.Provider value={services}>
        <ErrorDetails error={{ code: 'SESSION_STORE', message: 'down' }} onNode={() => {}} />
      </AppContext.Provider>,
      root,
    );
    expect(root.textContent).toBe('SESSION_STORE: down');
  });
});
