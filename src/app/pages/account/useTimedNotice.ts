import { useCallback, useEffect, useRef, useState } from 'react';
import type { NoticeValue } from '../auth/Notice';

/** A banner that hides itself after `ms` (a new one restarts the timer). */
export function useTimedNotice(ms: number): [NoticeValue | null, (n: NoticeValue) => void] {
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const show = useCallback(
    (n: NoticeValue) => {
      if (timer.current) clearTimeout(timer.current);
      setNotice(n);
      timer.current = setTimeout(() => {
        timer.current = null;
        setNotice(null);
      }, ms);
    },
    [ms],
  );
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return [notice, show];
}
