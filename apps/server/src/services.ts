import type { Config } from './config.ts';
import type { DatabaseKind, Db } from './db/client.ts';
import type { Background } from './lib/background.ts';
import type { Mailer } from './lib/mail.ts';
import type { PaymentContext } from './modules/payment/settlement.ts';
import type { PowerNotices } from './modules/power/power-manager.ts';
import type { ChargerCommands } from './ocpp/commands.ts';

/** What route modules are built with: plain values, no globals. */
export interface Services {
  db: Db;
  databaseKind: DatabaseKind;
  config: Config;
  mailer: Mailer;
  /** Commands to chargers, wherever their connection lives. */
  commands: ChargerCommands;
  /** Charges and refunds through the payment provider (the default records them for manual settlement). */
  payments: PaymentContext;
  /** Work after an answer (a charger's reservation once a booking committed): logged, and awaitable by tests. */
  background: Background;
  /** Tell the power sharing that a site's or a charger's power settings may have changed (modules/power). */
  power: PowerNotices;
}
