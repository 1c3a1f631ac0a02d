/** The question before moving tasks to Recently deleted, deleting them forever or emptying it. */
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { answerYes, dismissQuestion, questionWords, useTrashQuestion } from './recently-deleted.ts';

export function TrashQuestion() {
  const question = useTrashQuestion((s) => s.question);
  if (!question) return null;
  const words = questionWords(question);
  return (
    <ConfirmDialog
      title={words.title}
      message={words.body.map((line) => <p key={line}>{line}</p>)}
      confirmLabel={words.confirm}
      danger
      onCancel={dismissQuestion}
      onConfirm={() => void answerYes(question)}
    />
  );
}
