import { MessageBar, MessageBarBody, MessageBarTitle, type MessageBarIntent } from '@fluentui/react-components';

export interface NoticeValue {
  intent: MessageBarIntent;
  text: string;
  title?: string;
}

/** A status banner (Fluent MessageBar); errors and warnings are announced assertively. */
export function Notice({ notice }: { notice: NoticeValue | null | undefined }) {
  if (!notice) return null;
  const urgent = notice.intent === 'error' || notice.intent === 'warning';
  return (
    <MessageBar intent={notice.intent} layout="multiline" politeness={urgent ? 'assertive' : 'polite'} data-intent={notice.intent}>
      <MessageBarBody>
        {notice.title && <MessageBarTitle>{notice.title}</MessageBarTitle>}
        {notice.text}
      </MessageBarBody>
    </MessageBar>
  );
}
