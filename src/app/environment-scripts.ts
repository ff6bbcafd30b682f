import type { ServiceContainer } from '../core/di';
import type { EnvironmentInfo } from '../core/environment';
import * as T from './tokens';

/**
 * Debug console logging only on local and dev hosts; the analytics and session-recording
 * scripts only on production hosts, and only when their URLs were given at build time
 * (ANALYTICS_SCRIPT_URL, SESSION_RECORDING_SCRIPT_URL). Nothing is loaded otherwise.
 */
export function installEnvironmentScripts(container: ServiceContainer, doc: Document = document): string[] {
  const env = container.get<EnvironmentInfo>(T.Environment);
  if (!env.debugLogging) {
    console.debug = () => {};
    console.log = () => {};
  }
  const loaded: string[] = [];
  const add = (src: string | undefined) => {
    if (!src) return;
    const s = doc.createElement('script');
    s.async = true;
    s.src = src;
    doc.head.appendChild(s);
    loaded.push(src);
  };
  if (env.analytics) add(process.env.ANALYTICS_SCRIPT_URL);
  if (env.sessionRecording) add(process.env.SESSION_RECORDING_SCRIPT_URL);
  return loaded;
}
