import type { EditorCheckResponse } from '../../../../src/api-types';
import { useT } from '../../i18n/use-t';

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
  const t = useT('editor');
  return (
    <section id="problems" class="problems" aria-label={t('problems.label')}>
      <h3>
        {t('problems.title', {
          problems: problems.length ? ` (${problems.length})` : '',
          lint: lint.length ? ` (${lint.length})` : '',
        })}
      </h3>
      {!problems.length && !lint.length ? <p class="note">{t('problems.none')}</p> : null}
      <ul>
        {problems.map((problem, index) => (
          <li key={`p${index}`} class="finding is-error">
            {problem.nodeId !== undefined ? (
              <button type="button" class="link" onClick={() => onSelect(problem.nodeId!)}>
                {nameOf(problem.nodeId)}
              </button>
            ) : (
              t('problems.tree')
            )}
            : {problem.message} <span class="finding-fix">{t('fix', { fix: problem.fix })}</span>
          </li>
        ))}
        {lint.map((finding, index) => (
          <li key={`l${index}`} class="finding is-warning">
            <button type="button" class="link" onClick={() => onSelect(finding.nodeId)}>
              {nameOf(finding.nodeId)}
            </button>
            : {finding.message} <span class="finding-fix">{t('fix', { fix: finding.fix })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
