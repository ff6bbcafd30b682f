/**
 * Catalogue entries a server plugin contributes; upserted into the database at start-up.
 * Ids are the public numeric ids of section 7 (combination 10 is reconciliation, etc.).
 */
export interface SolutionSeed {
  id: number;
  name: string;
  descrption: string;
  icon: string;
  status: 'active' | 'coming_soon';
  author_first_name: string;
  created_time: string;
}

export interface TriggerSeed {
  id: number;
  name: string;
  icon: string;
}

export interface ConnectorSeed {
  id: number;
  name: string;
  icon: string;
  order: number;
  provider: string;
}

export interface WorkflowSeed {
  id: number;
  solution_id: number;
  name: string;
  descrption: string;
  /** 'coming_soon' marks a workflow not yet available */
  icon: string;
}

export interface RecipeTemplateSeed {
  name: string;
  description: string;
  /** ordered steps the automation engine runs */
  steps: Array<{ kind: 'trigger' | 'action'; provider: string; action: string; params?: Record<string, unknown> }>;
}

export interface CombinationSeed {
  id: number;
  workflow_id: number;
  order: number;
  name: string;
  sub_title: string;
  icon: string;
  created_time: string;
  status: 'active' | 'coming_soon';
  enabled: boolean;
  recommended: boolean;
  connectors: ConnectorSeed[];
  triggers: TriggerSeed[];
  recipe: RecipeTemplateSeed;
}

export interface CatalogueContribution {
  solutions?: SolutionSeed[];
  workflows?: WorkflowSeed[];
  combinations?: CombinationSeed[];
}
