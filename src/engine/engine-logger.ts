/**
 * A pino-compatible logger (only the three methods the engine uses). A file of its own because the
 * engine's options, its runner, its store pauses and the journaling of a run's end all name it, and
 * none of them may import another for it without closing an import circle.
 */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
