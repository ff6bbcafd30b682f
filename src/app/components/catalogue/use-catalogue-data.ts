import { useMemo } from 'react';
import type { Combination, ProviderConnection, UserRecipeRecord, Vote } from '../../../core/domain';
import {
  authorisationSourceFrom,
  cardStatus,
  hasVoted,
  isAuthorised,
  myVotes,
  recipeFor,
  type AuthorisationSource,
  type CardStatus,
} from '../../../core/catalogue';
import { useApi, useRegistry, useSession, useSessionState } from '../../hooks';
import { useLoad, type Load } from './use-load';

export interface UserCatalogueData {
  /** the user's provider connections (spec 7: proxy managed_users/{workatoId}/connections) */
  connections: Load<ProviderConnection[]>;
  /** the user's recipe records (spec 7: userByWorkatoRecipe/{workatoId}/) */
  records: Load<UserRecipeRecord[]>;
  /** the caller's votes */
  votes: Load<Vote[]>;
  /** authorisation rules and connectors from the plugin registry */
  source: AuthorisationSource;
  userId: number | null;
}

/** The per-user data every catalogue screen needs to tell a card's state. */
export function useUserCatalogueData(opts: { votes?: boolean } = {}): UserCatalogueData {
  const api = useApi();
  const session = useSession();
  const registry = useRegistry();
  const { userId } = useSessionState();
  const workatoId = session.workatoId;
  const source = useMemo(() => authorisationSourceFrom(registry), [registry]);

  const connections = useLoad<ProviderConnection[]>(
    () =>
      workatoId === null
        ? Promise.resolve([])
        : api
            .get<{ result?: ProviderConnection[] }>(`/api/platform/proxy?url=api/managed_users/${workatoId}/connections`)
            .then((r) => (Array.isArray(r?.result) ? r.result : [])),
    [api, workatoId],
  );
  const records = useLoad<UserRecipeRecord[]>(
    () =>
      workatoId === null
        ? Promise.resolve([])
        : api
            .get<{ workato_recipes?: UserRecipeRecord[] }>(`/api/platform/userByWorkatoRecipe/${workatoId}/`)
            .then((r) => (Array.isArray(r?.workato_recipes) ? r.workato_recipes : [])),
    [api, workatoId],
  );
  const wantVotes = opts.votes ?? true;
  const votes = useLoad<Vote[]>(
    () => (wantVotes ? api.get<Vote[]>('/api/platform/votes').then((v) => (Array.isArray(v) ? v : [])) : Promise.resolve([])),
    [api, wantVotes],
  );
  return { connections, records, votes, source, userId };
}

/** True once connections, recipes and votes have each loaded or failed. */
export function isSettled(d: UserCatalogueData): boolean {
  return d.connections.status !== 'loading' && d.records.status !== 'loading' && d.votes.status !== 'loading';
}

/** The card props (status and voted) of a combination, from the user's data; failed loads count as empty. */
export function cardPropsOf(d: UserCatalogueData) {
  const connections = d.connections.data ?? [];
  const records = d.records.data ?? [];
  const votes = myVotes(d.votes.data ?? [], d.userId);
  return (c: Combination): { status: CardStatus; voted: boolean } => ({
    status: cardStatus(c, recipeFor(c, records), isAuthorised(c, connections, d.source)),
    voted: hasVoted(c, votes),
  });
}
