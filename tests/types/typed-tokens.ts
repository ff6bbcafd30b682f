/**
 * Type tests, checked by `npm run typecheck` (tsc): each `@ts-expect-error` line must fail to
 * compile, or tsc fails. Tokens carry their service's type, so a mistyped fake or a read under the
 * wrong type does not compile.
 */
import { fakeOf, ServiceContainer } from '../../src/core/di';
import * as AppT from '../../src/app/tokens';
import * as ServerT from '../../src/server/tokens';
import { createShellContainer } from '../../src/app/container';
import type { ApiClient } from '../../src/app/services/api-client';
import type { Db } from '../../src/server/db/database';

const shell = createShellContainer({ plugins: [] });
const api: ApiClient = shell.get(AppT.ApiClient);
void api;

// @ts-expect-error a fake that does not fit the Clock interface
shell.rebind(AppT.Clock).toConstantValue({ now: () => 'noon' });

// @ts-expect-error a read under the wrong type
const wrong: Db = shell.get(AppT.ApiClient);
void wrong;

// @ts-expect-error a plain Symbol is no token: every service has a typed one
shell.get(Symbol('ApiClient'));

const server = new ServiceContainer();
server.constant(ServerT.Clock, { now: () => 1 });
// @ts-expect-error a queue fake missing its type: the value must be a JobQueue
server.replace(ServerT.JobQueue, { add: 1 });

// a typed partial fake: only the members a test needs, each checked against the interface
fakeOf(ServerT.Mailer, { send: async () => undefined });
// @ts-expect-error a member with the wrong signature
fakeOf(ServerT.Mailer, { send: (to: number) => to });
