/** How a tool treats its backend (§8). Only SAFE_PROBE tools may be called in a probe turn. */
export enum ToolSafety {
  /** Non-mutating with respect to the external backend; safe for a diagnosis probe. */
  SAFE_PROBE = 'SAFE_PROBE',
  READ_ONLY = 'READ_ONLY',
  MUTATING = 'MUTATING',
}

/** One tool of a turn's manifest as the caller sends it (D15). */
export interface ToolManifest {
  name: string;
  description: string;
  /** Absent = not known to be safe: hidden in a probe turn. */
  safety?: ToolSafety;
  /** The engine must hold every one of these roles to see the tool (§8). */
  requiresEngineRoles?: string[];
}

/** The role of the engines that may write tool health (Agrajag, later Frankie) (§7, §8). */
export const TOOL_HEALTH_WRITER_ROLE = 'tool-health-writer';

export enum FilterReason {
  MISSING_ENGINE_ROLE = 'MISSING_ENGINE_ROLE',
  NOT_SAFE_PROBE = 'NOT_SAFE_PROBE',
}

export interface FilteredTool {
  name: string;
  reason: FilterReason;
}

/** `T`: the caller's manifest entries, handed back as they came (with whatever else they carry). */
export interface AudienceResult<T extends ToolManifest = ToolManifest> {
  visible: T[];
  filtered: FilteredTool[];
}

/**
 * §8 / D15: a tool is in the manifest only when the engine holds all its required roles — a tool
 * the engine must not call should not exist for it, not merely be refused. A probe turn further
 * keeps only SAFE_PROBE tools. The role check is reported first: a tool the engine may never see
 * is filtered for that reason whatever the turn. Input order is kept.
 */
export function filterAudience<T extends ToolManifest>(
  manifests: T[],
  engineRoles: readonly string[],
  probeTurn: boolean,
): AudienceResult<T> {
  const held = new Set(engineRoles);
  const visible: T[] = [];
  const filtered: FilteredTool[] = [];
  for (const manifest of manifests) {
    const reason = filterReason(manifest, held, probeTurn);
    if (reason === null) visible.push(manifest);
    else filtered.push({ name: manifest.name, reason });
  }
  return { visible, filtered };
}

function filterReason(manifest: ToolManifest, held: ReadonlySet<string>, probeTurn: boolean): FilterReason | null {
  if (!(manifest.requiresEngineRoles ?? []).every((role) => held.has(role))) return FilterReason.MISSING_ENGINE_ROLE;
  if (probeTurn && manifest.safety !== ToolSafety.SAFE_PROBE) return FilterReason.NOT_SAFE_PROBE;
  return null;
}
