/**
 * Domain types shared by the browser shell, the server and plugins (spec section 3).
 * Field names follow the wire format of section 7 exactly, including its spellings
 * (`descrption`, `discrepencies`).
 */

/** A connector's provider id (`google_drive`, `flowmatic_ai`): whatever a plugin declares, so any string. */
export type ProviderId = string;

import type {
  Combination as CombinationWire,
  Connector as ConnectorWire,
  ProviderConnection,
  ProviderRecipe,
  Solution,
  Trigger,
  UserRecipeRecord,
  Workflow,
} from './wire-types';

/**
 * The catalogue and provider shapes are derived from their JSON Schemas (schemas/catalogue/,
 * generated into src/core/wire-types.ts): one definition for the client, the server and the tests.
 */
export type { ProviderConnection, ProviderRecipe, Solution, Trigger, UserRecipeRecord, Workflow };

/** A job of the automation engine as its routes answer it (schemas/automation/). */
export type { JobStepView, JobView } from './wire-types';
export type Connector = ConnectorWire & { provider: ProviderId | string };

export type CatalogueStatus = 'coming_soon' | 'active';

export interface Combination extends CombinationWire {
  /** computed in the browser from the user's connections */
  authed?: boolean;
}

export interface Vote {
  combination_id: number;
  user_id: number;
}

export type RecipeSetupStatus = UserRecipeRecord['status'];

export interface UserProfile {
  Name: string;
  Email: string;
  Role: number;
  Currency: string;
  Time_zone: string;
  Company: { name: string };
  Creation_date: string;
  status?: string;
  message?: string;
}

/** Reply of GET /api/platform/userId */
export interface UserIdReply {
  userID: number;
  workato_id: number;
  is_verify: boolean;
  time_zone: string;
  email: string;
}

export interface StatusReply {
  status: 'success' | 'error' | string;
  message?: string;
}

export interface PricingTier {
  id: number;
  numbers: number;
  base_price: number;
  per_request: number;
  currency: 'USD';
  cycle: 'monthly';
}
