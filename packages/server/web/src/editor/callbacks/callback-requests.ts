import type { StubCallback } from './callback-stub';

/** A node's request for a new callback: the panel writes the stub, then `onWritten` names it on the node. */
export interface StubRequest {
  node: { id: number; type: string; name?: string | undefined };
  callback: StubCallback;
  onWritten(name: string): void;
}

type Listener = (request: StubRequest) => void;
const listeners = new Set<Listener>();

/** Sends a request to the Callbacks panel (the inspector's "Add before callback"). */
export function requestStub(request: StubRequest): void {
  for (const listener of listeners) listener(request);
}

/** The panel's subscription to the requests; returns the unsubscribe function. */
export function onStubRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type SavedListener = () => void;
const savedListeners = new Set<SavedListener>();

/** Says that the Callbacks panel saved the module: its exports may have changed. */
export function announceModuleSaved(): void {
  for (const listener of savedListeners) listener();
}

/** The editor's subscription to the module's saves (it reads the exported names again); returns the unsubscribe function. */
export function onModuleSaved(listener: SavedListener): () => void {
  savedListeners.add(listener);
  return () => savedListeners.delete(listener);
}
