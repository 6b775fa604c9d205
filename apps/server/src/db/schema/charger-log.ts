import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * What chargers and the back-office said to each other (issue 32, section 3): every OCPP frame both ways, per
 * charger, credentials redacted, written in batches off the hot path and bounded (docs/decisions.md, Message
 * log). The charger id is kept as text without a reference: writing the log never waits on, or fails with, a
 * charger row, and the log of a deleted charger ages out with the rest.
 */
export const chargerMessages = pgTable(
  'charger_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    chargerId: text('charger_id').notNull(),
    /** When this process sent or received the frame. */
    at: at('at').notNull(),
    /** 'in': from the charger; 'out': to the charger. */
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    /** OCPP-J message type: CALL, CALLRESULT or CALLERROR; 'malformed' for a frame that is none of them. */
    kind: text('kind', { enum: ['call', 'result', 'error', 'malformed'] }).notNull(),
    /** The call's action; for a result or error, the action of the call it answers (null when unknown). */
    action: text('action'),
    messageId: text('message_id').notNull(),
    /** The OCPP subprotocol of the connection ('ocpp1.6', 'ocpp2.0.1'). */
    protocol: text('protocol').notNull(),
    /** The payload (a CALLERROR: { code, description, details }), redacted. */
    payload: jsonb('payload').notNull(),
  },
  (t) => [
    index('charger_messages_charger_idx').on(t.chargerId, t.at, t.id),
    index('charger_messages_at_idx').on(t.at),
  ],
);

/** Each WebSocket connection of a charger (and each refused attempt): when, from where, how it ended. */
export const chargerConnections = pgTable(
  'charger_connections',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    chargerId: text('charger_id').notNull(),
    /** The server process that held it (chargers.connected_node's form). */
    node: text('node'),
    /** The client's address (X-Forwarded-For's first hop with TRUST_PROXY=1). */
    remoteAddress: text('remote_address'),
    protocol: text('protocol'),
    connectedAt: at('connected_at').notNull(),
    disconnectedAt: at('disconnected_at'),
    /** The WebSocket close code (1000, 1006, 1012…), or the HTTP status of a refused upgrade. */
    closeCode: integer('close_code'),
    closeReason: text('close_reason'),
    /** A refused attempt: the HTTP status it was answered (401, 403, 404…); null for a connection. */
    refusedStatus: integer('refused_status'),
  },
  (t) => [
    index('charger_connections_charger_idx').on(t.chargerId, t.connectedAt),
    index('charger_connections_open_idx')
      .on(t.chargerId)
      .where(sql`${t.disconnectedAt} is null and ${t.refusedStatus} is null`),
  ],
);

/**
 * An OCPP 2.0.1 charger's device model (issue 33): each variable attribute its NotifyReport (GetBaseReport)
 * or a GetVariables answer gave, shown as the charger's configuration. `key` identifies the attribute:
 * component[instance]@evse:connector/variable[instance]#attributeType.
 */
export const chargerVariables = pgTable(
  'charger_variables',
  {
    chargerId: text('charger_id').notNull(),
    key: text('key').notNull(),
    component: text('component').notNull(),
    componentInstance: text('component_instance'),
    evseId: integer('evse_id'),
    evseConnectorId: integer('evse_connector_id'),
    variable: text('variable').notNull(),
    variableInstance: text('variable_instance'),
    /** Actual, Target, MinSet, MaxSet. */
    attributeType: text('attribute_type').notNull().default('Actual'),
    value: text('value'),
    /** ReadOnly, WriteOnly, ReadWrite. */
    mutability: text('mutability'),
    /** The characteristics: dataType, unit, valuesList… */
    characteristics: jsonb('characteristics'),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chargerId, t.key] })],
);
