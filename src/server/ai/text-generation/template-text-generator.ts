import type { GeneratedText, TextGenerator, TextTask } from './text-generator';

/** The default generator: renders the task's deterministic template, no model involved. */
export class TemplateTextGenerator implements TextGenerator {
  /** Returns `task.template()` with source 'template'. */
  async generate(task: TextTask): Promise<GeneratedText> {
    return { text: task.template(), source: 'template' };
  }
}
