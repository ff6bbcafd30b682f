import type { ComponentType } from 'react';
import { definePlugin as defineCorePlugin, type PluginManifest } from '../core/plugin';
import { PluginRegistry } from '../core/plugin-registry';

/** Props every workflow view receives. */
export interface WorkflowViewProps {
  workflowId: number;
  /** combination context when shown inside a combination setup screen */
  combinationId?: number;
}

/** Props every combination setup view receives. */
export interface CombinationViewProps {
  combinationId: number;
}

export type View = ComponentType<any>;
export type ClientPlugin = PluginManifest<View>;
export type ClientPluginRegistry = PluginRegistry<View>;

/** Declares a browser plugin: `export default definePlugin({ id, workflowViews, ... })`. */
export function definePlugin(manifest: ClientPlugin): ClientPlugin {
  return defineCorePlugin<View>(manifest);
}
