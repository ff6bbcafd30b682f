/** The small slice of a logger (pino, Fastify's, console) the text generators write to. */
export interface GeneratorLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  info?(obj: Record<string, unknown>, msg?: string): void;
}
