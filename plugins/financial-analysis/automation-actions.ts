import {
  AI_PROVIDER,
  badRequest,
  CsvFormatError,
  defineAction,
  HttpError,
  PermanentStepError,
  type ConfigStore,
  type FileRef,
  type FinancialAnalysisService,
  type OcrEngine,
  type TextGenerator,
} from '../../src/server';
import { analyseStatement, FOCUS_AREAS, isFocusArea, type AnalysisReport, type FocusArea } from './engine/analysis';
import { StatementReadError } from './engine/statement-reader';
import { readStatementFile, type StatementKind } from './statement-file';

/** What the analysis service reads with: the saved configs, the text generator and the OCR pool. */
export interface AnalysisServiceDeps {
  store: Pick<ConfigStore, 'forCombination'>;
  text: TextGenerator;
  ocr: OcrEngine;
  combinationId: number;
  /** the focus area when none is given and the owner saved none */
  defaultFocusArea: FocusArea;
}

/**
 * The analysis as a service (provided as FinancialAnalysis, with the page's calls): reads the statement, picks the focus
 * area (the given one, else the owner's saved one, else the default) and analyses it, as the
 * analysis page does. An unreadable statement or an unknown focus area is a 400.
 */
export function financialAnalysisService(deps: AnalysisServiceDeps): Pick<FinancialAnalysisService, 'analyse' | 'focusAreas'> {
  return {
    focusAreas: FOCUS_AREAS,
    async analyse(owner, file, focusArea) {
      let area: FocusArea;
      let source: 'given' | 'saved config' | 'default';
      if (focusArea !== undefined) {
        if (!isFocusArea(focusArea)) throw badRequest(`The focus area must be one of ${FOCUS_AREAS.join(', ')}.`);
        [area, source] = [focusArea, 'given'];
      } else {
        const saved = (await deps.store.forCombination(owner, deps.combinationId))?.config.SELECTED_FOCUS_AREA;
        [area, source] = isFocusArea(saved) ? [saved, 'saved config'] : [deps.defaultFocusArea, 'default'];
      }
      try {
        const report = await analyseStatement(await readStatementFile(file.name, file.kind, file.data, deps.ocr), area, deps.text);
        return { focusArea: area, focusAreaSource: source, report: report as unknown as Record<string, unknown> };
      } catch (error) {
        if (error instanceof StatementReadError || error instanceof CsvFormatError) throw badRequest(error.message);
        throw error;
      }
    },
  };
}

const STATEMENT_KINDS: readonly StatementKind[] = ['csv', 'xlsx', 'pdf'];

/** The report as the e-mail step sends it: the summary, the findings and the recommendations. */
function reportText(report: AnalysisReport): string {
  const findings = report.findings.map((f) => `- [${f.severity}] ${f.title}: ${f.detail}`);
  const parts = [
    report.summary,
    findings.length ? `Findings:\n${findings.join('\n')}` : '',
    report.recommendations.length ? `Recommendations:\n${report.recommendations.map((r) => `- ${r}`).join('\n')}` : '',
  ];
  if (report.unreadable.length) parts.push(`Not read: ${report.unreadable.join(', ')}`);
  return parts.filter(Boolean).join('\n\n');
}

/**
 * flowmatic_ai:analyse_financials: reads the run's statement (CSV, XLSX or PDF), analyses it for
 * the owner's saved focus area (the overall position when none is saved), as the analysis page
 * does, and passes on the report with a subject and text for the e-mail step (its "to" is the
 * run's "email" field when given). A statement that cannot be read fails the step at once.
 */
export function financialAnalysisSteps(analysis: FinancialAnalysisService) {
  return [
    defineAction({
      provider: AI_PROVIDER,
      action: 'analyse_financials',
      title: 'Analyse the financial statement',
      description: "Analyses the run's CSV, XLSX or PDF statement for the owner's saved focus area and writes the report as an e-mail's subject and text.",
      output: {
        type: 'object',
        required: ['subject', 'text', 'focus_area_source', 'report'],
        properties: {
          to: { type: 'string' },
          subject: { type: 'string' },
          text: { type: 'string' },
          focus_area_source: { enum: ['saved config', 'default'] },
          report: { type: 'object' },
        },
      },
      async run(input, ctx) {
        const given = (input as { files?: unknown } | null)?.files;
        const files = Array.isArray(given) ? (given as FileRef[]) : ctx.trigger.files;
        const file = files.find((f) => (STATEMENT_KINDS as readonly string[]).includes(f.kind));
        if (!file)
          throw new PermanentStepError(
            `This step analyses a financial statement, but the run brought ${files.length ? `only ${files.map((f) => `"${f.name}"`).join(', ')}` : 'no file'}: upload a CSV, XLSX or PDF statement.`,
          );
        let result;
        try {
          const bytes = await ctx.files.read(ctx.userId, file.bucket, file.key);
          result = await analysis.analyse(ctx.userId, { name: file.name, kind: file.kind as StatementKind, data: bytes });
        } catch (error) {
          if (error instanceof HttpError && error.statusCode === 400) throw new PermanentStepError(error.message);
          throw error;
        }
        const report = result.report as unknown as AnalysisReport;
        const to = ['email', 'to'].map((k) => ctx.trigger.data[k]).find((v): v is string => typeof v === 'string' && !!v.trim());
        return {
          ...(to ? { to: to.trim() } : {}),
          subject: `Financial analysis of ${file.name}: ${result.focusArea.replace(/-/g, ' ')}`,
          text: reportText(report),
          focus_area_source: result.focusAreaSource,
          report,
        };
      },
    }),
  ];
}
