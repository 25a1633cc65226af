import type { EditorCheckResponse } from '../../../../src/api-types';

/** The draft's problems (errors, which stop a save) and lint findings, each naming its node (a click selects it). */
export function ProblemsList({
  check,
  nameOf,
  onSelect,
}: {
  check: EditorCheckResponse | null;
  nameOf(id: number): string;
  onSelect(id: number): void;
}) {
  const problems = check?.problems ?? [];
  const lint = check?.lint ?? [];
  return (
    <section id="problems" class="problems" aria-label="Problems">
      <h3>
        Problems {problems.length ? `(${problems.length})` : ''} and lint{' '}
        {lint.length ? `(${lint.length})` : ''}
      </h3>
      {!problems.length && !lint.length ? <p class="note">None.</p> : null}
      <ul>
        {problems.map((problem, index) => (
          <li key={`p${index}`} class="finding is-error">
            {problem.nodeId !== undefined ? (
              <button type="button" class="link" onClick={() => onSelect(problem.nodeId!)}>
                {nameOf(problem.nodeId)}
              </button>
            ) : (
              'tree'
            )}
            : {problem.message} <span class="finding-fix">Fix: {problem.fix}</span>
          </li>
        ))}
        {lint.map((finding, index) => (
          <li key={`l${index}`} class="finding is-warning">
            <button type="button" class="link" onClick={() => onSelect(finding.nodeId)}>
              {nameOf(finding.nodeId)}
            </button>
            : {finding.message} <span class="finding-fix">Fix: {finding.fix}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
