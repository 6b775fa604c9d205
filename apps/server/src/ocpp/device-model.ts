/**
 * A 2.0.1 charger's device model as its NotifyReport messages give it (issue 33), kept in charger_variables:
 * one row per variable attribute. A report comes in parts (seqNo 0, 1, …, `tbc` on every part but the
 * last); the parts are gathered in the process holding the charger's connection, and the complete report
 * replaces the charger's rows in one transaction, so the screen never shows half of one report beside half
 * of the last. A report cut short (the charger gone mid-way) is dropped after REPORT_IDLE_MS and the rows
 * of the previous one stay.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { chargerVariables } from '../db/schema/index.ts';
import { keyOfFrame } from './adapters/ocpp201/device-model.ts';

/** A report whose next part has not come for this long is given up. */
export const REPORT_IDLE_MS = 10 * 60_000;
/** At most this many attributes in one report (a charger's model has hundreds to a few thousand). */
export const REPORT_MAX_ROWS = 50_000;
const INSERT_ROWS = 500;

type Row = typeof chargerVariables.$inferInsert;

interface ReportData {
  component: { name: string; instance?: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string; instance?: string };
  variableAttribute: Array<{
    type?: string;
    value?: string;
    mutability?: string;
    persistent?: boolean;
    constant?: boolean;
  }>;
  variableCharacteristics?: Record<string, unknown>;
}

interface Gathering {
  requestId: number;
  seqNos: Set<number>;
  rows: Map<string, Omit<Row, 'reportedAt'>>;
  touchedAt: number;
  tooLarge: boolean;
}

export type ReportPartOutcome = 'gathering' | 'stored' | 'dropped';

/** The parts of the reports under way, per charger (this process holds their connections). */
export class DeviceModelReports {
  private readonly reports = new Map<string, Gathering>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes one NotifyReport; stores the report when this part completes it. */
  async part(
    db: Db,
    chargerId: string,
    params: { requestId: number; seqNo: number; tbc?: boolean; reportData?: ReportData[] },
  ): Promise<ReportPartOutcome> {
    this.prune();
    let report = this.reports.get(chargerId);
    if (!report || report.requestId !== params.requestId) {
      // A new report replaces one under way: the charger only sends one at a time.
      report = {
        requestId: params.requestId,
        seqNos: new Set(),
        rows: new Map(),
        touchedAt: 0,
        tooLarge: false,
      };
      this.reports.set(chargerId, report);
    }
    report.touchedAt = this.now();
    if (!report.seqNos.has(params.seqNo)) {
      report.seqNos.add(params.seqNo);
      for (const row of rowsOf(chargerId, params.reportData ?? [])) {
        if (report.rows.size >= REPORT_MAX_ROWS && !report.rows.has(row.key)) {
          report.tooLarge = true;
          break;
        }
        report.rows.set(row.key, row);
      }
    }
    if (params.tbc) return 'gathering';
    this.reports.delete(chargerId);
    if (report.tooLarge) return 'dropped';
    await replaceModel(db, chargerId, [...report.rows.values()], new Date(this.now()));
    return 'stored';
  }

  private prune(): void {
    const before = this.now() - REPORT_IDLE_MS;
    for (const [chargerId, report] of this.reports)
      if (report.touchedAt < before) this.reports.delete(chargerId);
  }
}

/** One row per variable attribute of the report's entries. */
function rowsOf(chargerId: string, entries: ReportData[]): Array<Omit<Row, 'reportedAt'>> {
  return entries.flatMap((entry) =>
    entry.variableAttribute.map((attribute) => {
      const attributeType = attribute.type ?? 'Actual';
      return {
        chargerId,
        key: keyOfFrame(entry, attributeType),
        component: entry.component.name,
        componentInstance: entry.component.instance ?? null,
        evseId: entry.component.evse?.id ?? null,
        evseConnectorId: entry.component.evse?.connectorId ?? null,
        variable: entry.variable.name,
        variableInstance: entry.variable.instance ?? null,
        attributeType,
        value: attribute.value ?? null,
        // 2.0.1's default when a charger leaves it out.
        mutability: attribute.mutability ?? 'ReadWrite',
        characteristics: {
          ...(entry.variableCharacteristics ?? {}),
          ...(attribute.persistent !== undefined ? { persistent: attribute.persistent } : {}),
          ...(attribute.constant !== undefined ? { constant: attribute.constant } : {}),
        },
      };
    }),
  );
}

/** The charger's model is now this report's, at once. */
export async function replaceModel(
  db: Db,
  chargerId: string,
  rows: Array<Omit<Row, 'reportedAt'>>,
  reportedAt: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(chargerVariables).where(eq(chargerVariables.chargerId, chargerId));
    for (let at = 0; at < rows.length; at += INSERT_ROWS) {
      await tx
        .insert(chargerVariables)
        .values(rows.slice(at, at + INSERT_ROWS).map((row) => ({ ...row, reportedAt })));
    }
  });
}
