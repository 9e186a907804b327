import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Prompt,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import {
  listPlaybooks,
  PLAYBOOK_ARGUMENTS,
  PlaybookArgumentsSchema,
  playbookPrompt,
  type Playbook,
} from './playbooks.js';
import { fixedResources, templateResources, type FixedResource, type TemplateResource } from './resources.js';
import type { RestClient } from './rest-client.js';

/**
 * The prompts (playbooks) and resources (docs, OpenAPI, operation logs), built once per process and
 * served on a bare protocol `Server`, as the tool set serves the tools (tool-set.ts): registering them
 * on an McpServer per HTTP exchange cost ~0.9 ms (each registerPrompt builds a zod object), ~30 times
 * the rest of the exchange's setup. It answers as McpServer would for the same registrations
 * (playbooks.ts → registerPlaybookPrompts, resources.ts → registerResources; test/mcp/prompts-resources.test.ts
 * compares the lists): an unknown prompt or resource is Invalid params.
 */
export class McpContentSet {
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
  private readonly playbooks: ReadonlyMap<string, Playbook>;
  private readonly fixed: ReadonlyMap<string, FixedResource>;
  private readonly templates: readonly { template: UriTemplate; spec: TemplateResource }[];

  constructor(
    playbooks: readonly Playbook[] = listPlaybooks(),
    fixed: readonly FixedResource[] = fixedResources(),
    templates: readonly TemplateResource[] = templateResources(),
  ) {
    this.playbooks = new Map(playbooks.map((p) => [p.name, p]));
    if (this.playbooks.size !== playbooks.length) throw new Error('Two playbooks have the same name.');
    const args = Object.entries(PLAYBOOK_ARGUMENTS).map(([name, schema]) => ({
      name,
      description: schema.description,
      required: !schema.safeParse(undefined).success,
    }));
    this.prompts = Object.freeze(
      playbooks.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: args })),
    );
    this.fixed = new Map(fixed.map((r) => [r.uri, r]));
    this.resources = Object.freeze(
      fixed.map(({ uri, name, title, description, mimeType }) => ({
        uri,
        name,
        title,
        ...(description ? { description } : {}),
        mimeType,
      })),
    );
    this.templates = templates.map((spec) => ({ template: new UriTemplate(spec.uriTemplate), spec }));
    this.resourceTemplates = Object.freeze(
      templates.map(({ name, uriTemplate, title, description, mimeType }) => ({
        name,
        uriTemplate,
        title,
        description,
        mimeType,
      })),
    );
  }

  /** Declares prompts and resources on `server` (before it connects) and answers their five methods through `api`. */
  serve(server: Server, api: RestClient): void {
    // The lists never change while a server runs: no listChanged.
    server.registerCapabilities({ prompts: {}, resources: {} });
    const prompts = { prompts: this.prompts as Prompt[] };
    const resources = { resources: this.resources as Resource[] };
    const resourceTemplates = { resourceTemplates: this.resourceTemplates as ResourceTemplate[] };
    server.setRequestHandler(ListPromptsRequestSchema, () => prompts);
    server.setRequestHandler(GetPromptRequestSchema, (request) => {
      const { name, arguments: args } = request.params;
      const playbook = this.playbooks.get(name);
      if (!playbook) throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} not found`);
      const parsed = PlaybookArgumentsSchema.safeParse(args ?? {});
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${problems}`);
      }
      return playbookPrompt(playbook, parsed.data);
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => resources);
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resourceTemplates);
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const { uri } = request.params;
      const resource = this.fixed.get(uri);
      if (resource) {
        return { contents: [{ uri, mimeType: resource.mimeType, text: await resource.read(api, extra.signal) }] };
      }
      for (const { template, spec } of this.templates) {
        const variables = template.match(uri);
        if (variables) {
          return { contents: [{ uri, mimeType: spec.mimeType, text: await spec.read(api, variables, extra.signal) }] };
        }
      }
      throw new McpError(ErrorCode.InvalidParams, `Resource ${uri} not found`);
    });
  }
}
