/**
 * Domain types shared by the browser shell, the server and plugins (spec section 3).
 * Field names follow the wire format of section 7 exactly, including its spellings
 * (`descrption`, `discrepencies`).
 */

export type ProviderId =
  | 'google_drive'
  | 'google_sheets'
  | 'xero'
  | 'manual_upload'
  | 'manual_email'
  | `${string}_ai`;

export interface Trigger {
  id: number;
  name: string;
  icon: string;
}

export interface Connector {
  id: number;
  name: string;
  icon: string;
  order: number;
  provider: ProviderId | string;
}

export type CatalogueStatus = 'coming_soon' | 'active' | string;

export interface Combination {
  id: number;
  order: number;
  name: string;
  sub_title: string;
  icon: string;
  created_time: string;
  connectors: Connector[];
  triggers: Trigger[];
  status: CatalogueStatus;
  enabled: boolean;
  recommended: boolean;
  my_vote: boolean;
  votes: number;
  recipe_id: number | null;
  running: boolean;
  /** computed in the browser from the user's connections */
  authed?: boolean;
}

export interface Workflow {
  id: number;
  name: string;
  descrption: string;
  icon: string;
  combinations?: Combination[];
  triggers?: Trigger[];
  connectors?: Connector[];
}

export interface Solution {
  id: number;
  name: string;
  descrption: string;
  icon: string;
  status: CatalogueStatus;
  created_by: { user: { first_name: string } };
  created_time: string;
  workflows?: Workflow[];
}

export interface Vote {
  combination_id: number;
  user_id: number;
}

export interface ProviderRecipe {
  id: number;
  running: boolean;
  job_failed_count: number;
  job_succeeded_count: number;
}

export interface ProviderConnection {
  id: number;
  name: string;
  provider: string;
  authorization_status: 'success' | null | string;
}

export type RecipeSetupStatus = 'no started' | 'ready' | 'started' | 'complete';

export interface UserRecipeRecord {
  recipe_id: number;
  combination: number;
  name: string;
  status: RecipeSetupStatus;
  workato_webhook: string | null;
  folder_id: string | null;
  sheet_id: string | null;
  updated_at: string;
  job_succeeded_count: number;
  job_failed_count: number;
  location: string | null;
  description: string | null;
}

/** Reply of GET /api/platform/users/{id}/ */
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
