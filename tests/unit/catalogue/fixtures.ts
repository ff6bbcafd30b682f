import type { Combination, ProviderConnection, UserRecipeRecord } from '../../../src/core/domain';

export function combination(id: number, fields: Partial<Combination> = {}): Combination {
  return {
    id,
    workflow_id: 10004,
    order: 0,
    name: `Combination ${id}`,
    sub_title: '',
    icon: 'invoice',
    created_time: '2026-11-22T10:00:00Z',
    connectors: [],
    triggers: [],
    status: 'active',
    enabled: true,
    recommended: false,
    my_vote: false,
    votes: 0,
    recipe_id: null,
    running: false,
    ...fields,
  };
}

export function record(combinationId: number, fields: Partial<UserRecipeRecord> = {}): UserRecipeRecord {
  return {
    recipe_id: 1000 + combinationId,
    combination: combinationId,
    name: `Recipe ${combinationId}`,
    status: 'complete',
    workato_webhook: null,
    folder_id: null,
    sheet_id: null,
    updated_at: '2026-11-22T10:00:00Z',
    job_succeeded_count: 0,
    job_failed_count: 0,
    location: null,
    description: null,
    ...fields,
  };
}

export function connection(provider: string, status: string | null = 'success'): ProviderConnection {
  return { id: Math.floor(Math.random() * 1e6), name: provider, provider, authorization_status: status };
}
