import { useNavigate } from 'react-router-dom';
import { Button } from '@fluentui/react-components';
import { ArrowLeft20Regular } from '@fluentui/react-icons/svg/arrow-left';
import { ArrowClockwise20Regular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { ApiError } from '../../services/http';
import { EmptyState, LOAD_ERROR, LoadError } from './Notice';

/** The spec's text for a list or item with nothing to show. */
export const NO_CONTENT = 'Sorry, no content available at the moment.';
export const OFFLINE = 'We could not reach the server. Check your connection and try again.';

/** How a failed load reads to the user: nothing there (404), no connection, or another failure. */
export function failureKind(error: unknown): 'not-found' | 'offline' | 'other' {
  if (error instanceof ApiError) {
    if (error.status === 404) return 'not-found';
    if (error.status === 0) return 'offline';
  }
  return 'other';
}

/**
 * What a screen shows when its main load failed: a 404 from the API reads as not found, with
 * the spec's 'Sorry, no content available at the moment.' and 'Go back'; a network failure or
 * any other error offers a retry.
 */
export function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const navigate = useNavigate();
  const kind = failureKind(error);
  if (kind === 'not-found') {
    return (
      <EmptyState
        action={
          <Button appearance="primary" icon={<ArrowLeft20Regular />} onClick={() => navigate(-1)}>
            Go back
          </Button>
        }
      >
        {NO_CONTENT}
      </EmptyState>
    );
  }
  return (
    <div style={{ display: 'grid', gap: 12, justifyItems: 'start' }}>
      <LoadError>{kind === 'offline' ? OFFLINE : LOAD_ERROR}</LoadError>
      <Button appearance="secondary" icon={<ArrowClockwise20Regular />} onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
