import { AI_PROVIDER, CsvFormatError, PermanentStepError, type ActionContext, type ActionDefinition, type ConfigStore, type FileRef, type OcrEngine, type TextGenerator } from '../../src/server';
import { analyseStatement, isFocusArea, type AnalysisReport, type FocusArea } from './engine/analysis';
import { StatementReadError } from './engine/statement-reader';
import { readStatementFile, type StatementKind } from './statement-file';

/** What the analysis step needs from the running plugin. */
export interface AnalyseStepServices {
  store: Pick<ConfigStore, 'forCombination'>;
  text: TextGenerator;
  ocr: OcrEngine;
  combinationId: number;
  /** the focus area when the owner saved none */
  defaultFocusArea: FocusArea;
}

const STATEMENT_KINDS: readonly StatementKind[] = ['csv', 'xlsx', 'pdf'];

/** The report as the e-mail step sends it: the summary, the findings and the recommendations. */
function reportText(report: AnalysisReport): string {
  const findings = report.findings.map((f) => `- [${f.severity}] ${f.title}: ${f.detail}`);
  const parts = [report.summary, findings.length ? `Findings:\n${findings.join('\n')}` : '', report.recommendations.length ? `Recommendations:\n${report.recommendations.map((r) => `- ${r}`).join('\n')}` : ''];
  if (report.unreadable.length) parts.push(`Not read: ${report.unreadable.join(', ')}`);
  return parts.filter(Boolean).join('\n\n');
}

/**
 * flowmatic_ai:analyse_financials: reads the run's statement (CSV, XLSX or PDF), analyses it for
 * the owner's saved focus area (the overall position when none is saved), as the analysis page
 * does, and passes on the report with a subject and text for the e-mail step (its "to" is the
 * run's "email" field when given). A statement that cannot be read fails the step at once.
 */
export function financialAnalysisActions(services: () => AnalyseStepServices): ActionDefinition[] {
  return [
    {
      provider: AI_PROVIDER,
      action: 'analyse_financials',
      name: 'Analyse the financial statement',
      async run(input, ctx: ActionContext) {
        const { store, text, ocr, combinationId, defaultFocusArea } = services();
        const given = (input as { files?: unknown } | null)?.files;
        const files = Array.isArray(given) ? (given as FileRef[]) : ctx.trigger.files;
        const file = files.find((f) => (STATEMENT_KINDS as readonly string[]).includes(f.kind));
        if (!file) throw new PermanentStepError(`This step analyses a financial statement, but the run brought ${files.length ? `only ${files.map((f) => `"${f.name}"`).join(', ')}` : 'no file'}: upload a CSV, XLSX or PDF statement.`);
        const saved = (await store.forCombination(ctx.userId, combinationId))?.config.SELECTED_FOCUS_AREA;
        const focusArea = isFocusArea(saved) ? saved : defaultFocusArea;
        let report: AnalysisReport;
        try {
          const bytes = await ctx.files.read(ctx.userId, file.bucket, file.key);
          report = await analyseStatement(await readStatementFile(file.name, file.kind as StatementKind, bytes, ocr), focusArea, text);
        } catch (error) {
          if (error instanceof StatementReadError || error instanceof CsvFormatError) throw new PermanentStepError(error.message);
          throw error;
        }
        const to = ['email', 'to'].map((k) => ctx.trigger.data[k]).find((v): v is string => typeof v === 'string' && !!v.trim());
        return {
          ...(to ? { to: to.trim() } : {}),
          subject: `Financial analysis of ${file.name}: ${focusArea.replace(/-/g, ' ')}`,
          text: reportText(report),
          focus_area_source: isFocusArea(saved) ? 'saved config' : 'default',
          report,
        };
      },
    },
  ];
}
