import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { CallbackDiagnostic, CallbacksModuleState } from '../../../../src/api-types';
import { ApiError } from '../../api/api-error';
import { callbacksApi } from '../../api/callbacks-api';
import { useApp } from '../../app/app-context';
import { useT } from '../../i18n/use-t';
import { announceModuleSaved, onStubRequest, type StubRequest } from './callback-requests';
import { stubName, withStub } from './callback-stub';
import type { CodeEditor } from './code-editor';
import type { TypeChecker } from './type-checker';
import './callbacks-panel.css';

type Checked = { text: string; diagnostics: CallbackDiagnostic[] };

/**
 * The editor's Callbacks panel (docs/editor.md): the tree's callbacks module in a code editor
 * (CodeMirror 6, TypeScript), its type errors shown inline and listed from the compiler in a worker
 * before saving; Save only when the text checked has none (the server checks again). The editor and
 * the worker are loaded when the panel opens. A node's "Add before callback" opens it at a new stub.
 */
export function CallbacksPanel() {
  const { api } = useApp();
  const t = useT('callbacks');
  const [open, setOpen] = useState(false);
  const [started, setStarted] = useState(false);
  const [module, setModule] = useState<CallbacksModuleState | null>(null);
  const [text, setText] = useState('');
  const [checked, setChecked] = useState<Checked | null>(null);
  const [serverErrors, setServerErrors] = useState<CallbackDiagnostic[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<CodeEditor | null>(null);
  const checker = useRef<TypeChecker | null>(null);
  const ready = useRef<Promise<void> | null>(null);
  const moduleRef = useRef<CallbacksModuleState | null>(null);

  /** Loads the module, the code editor and the worker (once), and resolves when they are ready. */
  const start = useCallback((): Promise<void> => {
    setOpen(true);
    setStarted(true);
    ready.current ??= (async () => {
      setError(null);
      const [state, codeEditor, typeChecker] = await Promise.all([
        callbacksApi.read(api),
        import('./code-editor'),
        import('./type-checker'),
      ]);
      const running = await typeChecker.startTypeChecker(api, state.file);
      checker.current = running;
      moduleRef.current = state;
      setModule(state);
      setText(state.text);
      if (!host.current) throw new Error('The panel closed while it loaded.');
      editor.current = codeEditor.createCodeEditor({
        parent: host.current,
        text: state.text,
        label: t('editorLabel', { file: state.file }),
        check: (draft) => running.check(draft),
        onChecked: (draft, diagnostics) => setChecked({ text: draft, diagnostics }),
        onChange: (draft) => {
          setText(draft);
          setServerErrors(null);
          setStatus(null);
        },
      });
    })().catch((caught: unknown) => {
      ready.current = null;
      setError(
        caught instanceof ApiError && caught.status === 404
          ? caught.message
          : t('loadFailed', { error: caught instanceof Error ? caught.message : String(caught) }),
      );
      throw caught;
    });
    return ready.current;
  }, [api, t]);

  useEffect(
    () => () => {
      editor.current?.destroy();
      checker.current?.stop();
    },
    [],
  );

  const save = useCallback(
    async (draft: string): Promise<boolean> => {
      const current = moduleRef.current;
      if (!current) return false;
      setSaving(true);
      setError(null);
      try {
        const { version } = await callbacksApi.save(api, draft, current.version);
        const saved = { ...current, text: draft, version };
        moduleRef.current = saved;
        setModule(saved);
        setServerErrors(null);
        setStatus(t('saved'));
        announceModuleSaved();
        return true;
      } catch (caught) {
        if (caught instanceof ApiError && caught.details?.diagnostics)
          setServerErrors(caught.details.diagnostics);
        setError(caught instanceof Error ? caught.message : String(caught));
        return false;
      } finally {
        setSaving(false);
      }
    },
    [api, t],
  );

  // "Add before callback" from a node: the stub appended (and saved when nothing else is unsaved).
  useEffect(
    () =>
      onStubRequest((request: StubRequest) => {
        void start()
          .then(async () => {
            const view = editor.current!;
            const before = view.text();
            const unsaved = before !== moduleRef.current?.text;
            const name = stubName(request.node, request.callback, before);
            const added = withStub(before, {
              name,
              callback: request.callback,
              nodeType: request.node.type,
              nodeId: request.node.id,
              nodeName: request.node.name,
            });
            view.setText(added.text);
            view.goToLine(added.line);
            if (unsaved || (await save(added.text))) request.onWritten(name);
          })
          .catch(() => undefined);
      }),
    [start, save],
  );

  const upToDate = checked !== null && checked.text === text;
  const errors = serverErrors ?? (upToDate ? checked.diagnostics : []);
  const dirty = module !== null && text !== module.text;
  const canSave = dirty && upToDate && checked.diagnostics.length === 0 && !saving;
  const statusText =
    status ??
    (!module
      ? t('loading')
      : !upToDate
        ? t('checking')
        : errors.length
          ? t('errors', { count: errors.length })
          : dirty
            ? t('noErrors')
            : t('unchanged'));

  const opener = (
    <section class="form-section callbacks-closed">
      <h3>{t('title')}</h3>
      <button
        type="button"
        id="callbacks-open"
        class="button-small"
        onClick={() => void start().catch(() => undefined)}
      >
        {t('open')}
      </button>
    </section>
  );
  if (!started) return opener;
  // Kept mounted once started (the code editor lives in it); closing hides it.
  return (
    <>
      {open ? null : opener}
      <section id="callbacks-panel" class="callbacks-panel" aria-label={t('title')} hidden={!open}>
        <header class="callbacks-head">
          <h3>
            {t('title')} {module ? <code>{module.file}</code> : null}
          </h3>
          <span id="callbacks-status" class={errors.length ? 'is-error' : ''} role="status">
            {statusText}
          </span>
          <button type="button" id="callbacks-save" disabled={!canSave} onClick={() => void save(text)}>
            {t('save')}
          </button>
          <button type="button" id="callbacks-close" class="button-small" onClick={() => setOpen(false)}>
            {t('close')}
          </button>
        </header>
        {error ? (
          <p id="callbacks-error" class="finding is-error">
            {error}
          </p>
        ) : null}
        <div class="callbacks-body">
          <div ref={host} class="callbacks-code" />
          {errors.length ? (
            <ul id="callbacks-errors" class="callbacks-errors">
              {errors.map((diagnostic) => (
                <li key={`${diagnostic.start}:${diagnostic.code}`}>
                  <button
                    type="button"
                    class="link"
                    onClick={() => editor.current?.goToLine(diagnostic.line)}
                  >{`${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`}</button>{' '}
                  {diagnostic.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>
    </>
  );
}
