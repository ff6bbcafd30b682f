import { contributionKind } from '../../core/contributions';
import type { ActionContext } from './kinds';

/** What the starter recipe is preparing: whose workspace, for which combination. */
export interface SetupRequest {
  combinationId: number;
  managedUserId: number;
  userId: number;
  /** the providers of the combination's steps ('google_drive', 'google_sheets', …) */
  connectors: string[];
}

/**
 * Something the starter recipe prepares in a user's workspace when a combination is set up (the
 * connectors plugin: the combination's Drive folder and Google Sheet). Contributed with
 * `contribute(SetupPreparations, { id, prepare })`; the starter's 'prepare_setup' step runs every
 * one and reports what each did. `prepare` must be idempotent (the step may be retried) and
 * return quickly when the combination needs nothing from it.
 */
export interface SetupPreparation {
  id: string;
  prepare(request: SetupRequest, ctx: ActionContext): Promise<{ prepared: string[]; skipped?: string[] }>;
}

export const SetupPreparations = contributionKind<SetupPreparation>('automation.setup-preparation', 'Setup preparation', (p) => p.id);
