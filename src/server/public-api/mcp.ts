/**
 * The MCP server at /mcp: Streamable HTTP (the official SDK), stateless (a server and transport
 * per request, so any process of the fleet answers any call and nothing is kept between calls),
 * JSON replies. Its tools are the operations that name one, with their input JSON Schemas
 * inlined. A call whose arguments do not fit gets an error result naming the field; an unknown
 * tool is -32602; another user's ids are an error result ("not found"), as on the REST routes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { OPERATIONS, type Caller, type Operation, type Outcome } from './operations';
import { inlined } from './schemas';

export const MCP_PATH = '/mcp';

const INSTRUCTIONS =
  'Flowmatic runs business automations (recipes) and AI workflows for the user who owns this API key. ' +
  'list_recipes shows the recipes; a recipe must be running (start_recipe) before run_recipe runs it; run_recipe answers a job_id to poll with get_job. ' +
  'extract_invoice, analyse_emotion, search_documents and reconcile_invoices answer at once; analyse_financial_statement answers a job_id to poll with get_job.';

/** What calling an operation takes: its input checked, then run (errors become outcomes). */
export type RunOperation = (op: Operation, caller: Caller, input: unknown) => Promise<Outcome>;

const READ_ONLY = new Set(['list_combinations', 'list_recipes', 'get_job', 'analyse_emotion', 'search_documents', 'extract_invoice']);

/** The tools, made once: name, description, input schema (an object schema, $refs inlined). */
export function mcpTools(): Tool[] {
  return OPERATIONS.filter((op) => op.tool).map((op) => {
    const schema = inlined(op.input) as Tool['inputSchema'];
    // the result's shape: the schema of the operation's success reply (its structuredContent)
    const success = Object.entries(op.replies).find(([status]) => Number(status) < 300)!;
    const output = inlined(success[1].schema) as Tool['outputSchema'];
    return {
      name: op.tool!,
      title: op.summary,
      description: op.description,
      inputSchema: { ...schema, type: 'object' },
      outputSchema: { ...output, type: 'object' },
      annotations: { title: op.summary, readOnlyHint: READ_ONLY.has(op.tool!), openWorldHint: false },
    };
  });
}

function resultOf(outcome: Outcome): CallToolResult {
  const body = (outcome.body ?? {}) as Record<string, unknown>;
  if (outcome.status >= 400) {
    const message = typeof body.message === 'string' ? body.message : `The call failed (HTTP ${outcome.status}).`;
    // no structuredContent: it would have to fit the tool's output schema, which describes success
    return { isError: true, content: [{ type: 'text', text: message }] };
  }
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

export class McpEndpoint {
  private readonly tools = mcpTools();
  private readonly byName = new Map(OPERATIONS.filter((op) => op.tool).map((op) => [op.tool!, op]));
  /** one validator for every request's server (else the SDK builds a new Ajv for each request, 1-4 ms here) */
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    private readonly run: RunOperation,
    private readonly version: string,
  ) {}

  /** A server for one request, acting as the key's user. */
  private serverFor(caller: Caller): Server {
    const server = new Server(
      { name: 'flowmatic', title: 'Flowmatic', version: this.version },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: this.validator },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const op = this.byName.get(request.params.name);
      if (!op) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}": the tools are ${[...this.byName.keys()].join(', ')}.`);
      return resultOf(await this.run(op, caller, request.params.arguments ?? {}));
    });
    return server;
  }

  /** POST /mcp: one JSON-RPC message (or batch), answered as JSON. */
  async handle(request: FastifyRequest, reply: FastifyReply, caller: Caller): Promise<void> {
    const server = this.serverFor(caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: ErrorCode.InternalError, message: 'Something went wrong on our side. Please try again.' },
            id: null,
          }),
        );
      }
    }
  }
}
