import type { OpenAPIObject } from '@nestjs/swagger';
import { AGRAJAG_TOOLS, AgrajagToolName } from './agrajag-tools';

/** The OpenAPI component name of each tool's arguments, e.g. AgrajagSetUnavailableArguments. */
export const AGRAJAG_ARGUMENTS_COMPONENT: Record<AgrajagToolName, string> = {
  [AgrajagToolName.SET_UNAVAILABLE]: 'AgrajagSetUnavailableArguments',
  [AgrajagToolName.SET_AVAILABLE]: 'AgrajagSetAvailableArguments',
  [AgrajagToolName.SET_COOLDOWN]: 'AgrajagSetCooldownArguments',
  [AgrajagToolName.CLEAR]: 'AgrajagClearArguments',
};

/**
 * Adds each Agrajag tool's argument schema (the very schema invocations are validated against,
 * AGRAJAG_TOOLS, read off its argument class, P115) as a named component, so invokeAgrajagTool's `arguments` can reference them
 * (P84). The tool is chosen by the path, so the union has no discriminator inside the body.
 * Mutates and returns the document.
 */
export function documentAgrajagArguments(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  for (const tool of AGRAJAG_TOOLS) {
    document.components.schemas[AGRAJAG_ARGUMENTS_COMPONENT[tool.name]] = {
      ...tool.inputSchema,
      description: `The arguments of ${tool.name}: ${tool.description}`,
    };
  }
  return document;
}
