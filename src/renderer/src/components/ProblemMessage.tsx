/**
 * A problem that is no single field's (a key main cannot use, a balance it could not read, audio
 * that does not load), in the error style and said at once (role=alert); nothing when there is none.
 */
export function ProblemMessage({ problem, testId }: { problem: string | null | undefined; testId?: string }) {
  return problem ? (
    <p className="field-error" role="alert" data-testid={testId}>
      {problem}
    </p>
  ) : null;
}
