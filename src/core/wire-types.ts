/* eslint-disable */
/**
 * Generated from schemas/ by schemas/generate-wire-types.ts (npm run schemas:types): do not edit.
 * One shape per wire type, used by the client, the server and the tests.
 */

// from schemas/auth/login.schema.json
export interface LoginPayload {
username: string
password: string
}

// from schemas/auth/register.schema.json
export interface RegisterPayload {
name: string
username: string
email: string
role: (("cpo" | "ds" | "mlops" | "devops" | "dev" | "pm" | "bm" | "sm" | "other") & string)
company: string
password: string
accept_terms: true
}

// from schemas/auth/forget-password.schema.json
export interface ForgetPasswordPayload {
email: string
}

// from schemas/auth/reset-password.schema.json
export interface ResetPasswordPayload {
access: string
password: string
}

// from schemas/auth/email-verify.schema.json
export interface EmailVerifyPayload {
email: string
}

// from schemas/auth/token-refresh.schema.json
export interface TokenRefreshPayload {
refresh: string
}

// from schemas/account/user-update.schema.json
export interface UserUpdatePayload {
name: string
email?: string
role: (number & (1 | 2 | 3 | 4 | 6 | 7 | 8 | 9 | 10 | 11 | 13 | 14))
currency: ("DZD" | "ARP" | "AUD" | "CAD" | "EUR" | "NZD" | "GBP" | "USD" | "other")
/**
 * One of the labels of schemas/account/time-zones.json; the list is added where the schema is used (src/core/account-schemas.ts), so it lives in one file.
 */
time_zone: string
/**
 * Required when the e-mail changes: the account's current password (the one field added to the spec's payload).
 */
password?: string
}

// from schemas/account/change-password.schema.json
export interface ChangePasswordPayload {
password: string
newpassword: string
}

// from schemas/catalogue/trigger.schema.json
export interface Trigger {
id: number
name: string
icon: string
}

// from schemas/catalogue/connector.schema.json
export interface Connector {
id: number
name: string
icon: string
order: number
provider: string
}

// from schemas/catalogue/combination.schema.json
/**
 * One element of GET /api/platform/combinations and the reply of GET /api/platform/combination/{id}/; my_vote, votes, recipe_id and running are for the caller.
 */
export interface Combination {
id: number
workflow_id: number
order: number
name: string
sub_title: string
icon: string
created_time: string
connectors: Connector[]
triggers: Trigger[]
status: ("active" | "coming_soon")
enabled: boolean
recommended: boolean
my_vote: boolean
votes: number
recipe_id: (number | null)
running: boolean
/**
 * Setup starts the starter recipe first.
 */
starter_recipe?: boolean
/**
 * Setup is complete as soon as the recipe starts.
 */
completes_on_start?: boolean
/**
 * The New Combination card opens this combination's workflow.
 */
new_combination_target?: boolean
}

// from schemas/catalogue/workflow.schema.json
/**
 * Reply of GET /api/platform/workflows/{id}/ (with combinations, triggers and connectors), and the elements of a solution's workflows and of POST /api/platform/searchWorkflowTemplate (without them). The icon coming_soon marks a workflow not yet available.
 */
export interface Workflow {
id: number
solution_id?: number
name: string
descrption: string
icon: string
combinations?: Combination[]
triggers?: Trigger[]
connectors?: Connector[]
}

// from schemas/catalogue/solution.schema.json
/**
 * One element of GET /api/platform/solutions, and the reply of GET /api/platform/solution/{id}/ (with workflows).
 */
export interface Solution {
id: number
name: string
descrption: string
icon: string
status: ("active" | "coming_soon")
created_by: {
user: {
first_name: string
}
}
created_time: string
workflows?: Workflow[]
}

// from schemas/catalogue/vote.schema.json
/**
 * Body of POST /api/platform/votes.
 */
export interface VotePayload {
combination_id: (number | string)
}

// from schemas/catalogue/search-workflow-template.schema.json
/**
 * Body of POST /api/platform/searchWorkflowTemplate. The client sends the query after a 700 ms pause and only when it is longer than 2 characters; the server accepts any length up to 200 (an empty query lists all).
 */
export interface SearchWorkflowTemplatePayload {
SolutionId: (number | string)
Query: string
}

// from schemas/catalogue/marketing.schema.json
/**
 * Body of POST /api/platform/marketing, sent when the user acknowledges a home-page announcement.
 */
export interface MarketingPayload {
topic: string
}

// from schemas/catalogue/provider-connection.schema.json
/**
 * GET /api/platform/proxy?url=api/managed_users/{workatoId}/connections replies { result: [these] }; authorization_status 'success' means connected, null not connected.
 */
export interface ProviderConnection {
id: number
name: string
provider: string
authorization_status: (string | null)
}

// from schemas/catalogue/provider-recipe.schema.json
/**
 * Reply of GET /api/platform/proxy?url=api/managed_users/{workatoId}/recipes/{recipeId}.
 */
export interface ProviderRecipe {
id: number
running: boolean
job_failed_count: number
job_succeeded_count: number
}

// from schemas/catalogue/user-recipe-record.schema.json
/**
 * GET /api/platform/userByWorkatoRecipe/{workatoId}/ replies { workato_recipes: [these] }; combination 0 is the starter recipe.
 */
export interface UserRecipeRecord {
recipe_id: number
combination: number
name: string
status: ("no started" | "ready" | "started" | "complete")
workato_webhook: (string | null)
folder_id: (string | null)
sheet_id: (string | null)
updated_at: string
job_succeeded_count: number
job_failed_count: number
location: (string | null)
description: (string | null)
}

// from schemas/catalogue/catalogue-contribution.schema.json
export type Id = number
export type Text = string
export type LongText = string
export type IconKey = string
export type Status = ("active" | "coming_soon")
export type IsoTime = string
export type Provider = string

/**
 * Validated at start-up, before the entries are upserted.
 */
export interface CatalogueContribution {
solutions?: SolutionSeed[]
workflows?: WorkflowSeed[]
combinations?: CombinationSeed[]
}
export interface SolutionSeed {
id: Id
name: Text
descrption: LongText
icon: IconKey
status: Status
author_first_name: Text
created_time: IsoTime
}
export interface WorkflowSeed {
id: Id
solution_id: Id
name: Text
descrption: LongText
icon: IconKey
/**
 * Minutes of manual work one successful run saves (the monitoring screen's time saved); 5 when absent.
 */
minutes_per_run?: number
}
export interface CombinationSeed {
id: Id
workflow_id: Id
order: number
name: Text
sub_title: Text
icon: IconKey
created_time: IsoTime
status: Status
enabled: boolean
recommended: boolean
connectors: ConnectorSeed[]
triggers: TriggerSeed[]
recipe: RecipeTemplateSeed
starter_recipe?: boolean
completes_on_start?: boolean
new_combination_target?: boolean
}
/**
 * A connector of a combination, named by its provider: the catalogue takes its numeric id and name from the connector's declaration (a plugin's defineConnector); given here, they must be the declared ones. The icon is the provider unless given.
 */
export interface ConnectorSeed {
id?: Id
name?: Text
icon?: IconKey
order: number
provider: Provider
}
/**
 * A trigger of a combination, named by its id (kind): the catalogue takes its numeric id, name and icon from the trigger's declaration (the core's built-in triggers or a plugin's defineCatalogueTrigger); given here, the id and name must be the declared ones. The icon is the declared one unless given.
 */
export interface TriggerSeed {
kind: Provider
id?: Id
name?: Text
icon?: IconKey
}
export interface RecipeTemplateSeed {
name: Text
description: LongText
/**
 * @minItems 1
 */
steps: {
kind: ("trigger" | "action")
/**
 * A connector's provider or an engine action's provider (webhook, flowmatic, email…); a step no plugin contributes answers 'Connector not found.'
 */
provider: string
action: string
params?: {
[k: string]: unknown | undefined
}
}[]
}

// from schemas/automation/job-step-view.schema.json
/**
 * One step of a job: GET /api/automation/jobs/{jobId} replies { job, steps: [these] }, in run order; step 0 is the trigger. Times are ISO 8601.
 */
export interface JobStepView {
index: number
provider: string
action: string
name: string
status: ("pending" | "running" | "succeeded" | "failed" | "skipped")
input_summary: (string | null)
/**
 * one line about what the step produced (at most 240 characters)
 */
output_summary: (string | null)
/**
 * what the step produced, as the job view shows it: one group per thing made (a document read, a row written, a bill, an e-mail) with its labelled values; state 'missing' marks a value not found, 'check' one read with low confidence. Present once the step has succeeded.
 */
output_details?: {
title: string
items: {
label: string
value: string
state?: ("missing" | "check")
}[]
/**
 * warnings about it, in sentences
 */
notes?: string[]
}[]
/**
 * the step's full output as the next step received it (any JSON); present once the step has succeeded
 */
output?: {
[k: string]: unknown | undefined
}
error: (string | null)
/**
 * tries of the step so far
 */
attempts: number
started_at: (string | null)
completed_at: (string | null)
}

// from schemas/automation/job-view.schema.json
/**
 * One job of a recipe as the engine's jobs API shows it: GET /api/automation/recipes/{recipeId}/jobs replies { jobs: [these] }, GET /api/automation/jobs/{jobId} replies { job: this, steps }, POST .../retry replies { status: 'ok', job: this }. Times are ISO 8601.
 */
export interface JobView {
id: string
recipe_id: number
combination_id: number
status: ("queued" | "running" | "succeeded" | "failed")
title: string
trigger_summary: string
created_at: string
started_at: (string | null)
completed_at: (string | null)
/**
 * from started_at to completed_at, when both are known
 */
duration_ms: (number | null)
/**
 * runs of the job: 1, plus one per retry asked for
 */
attempt: number
error: (string | null)
}
