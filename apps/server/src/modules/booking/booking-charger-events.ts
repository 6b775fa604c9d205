/**
 * The bookings' side of what chargers report (ocpp/events.ts): app.ts hands this to OcppCentral, so the
 * charger side never imports the modules.
 */
import type { Db } from '../../db/client.ts';
import type { ChargerEvents } from '../../ocpp/events.ts';
import { onConnectorStatus, onMeterValues, onStopTransaction } from './charger-events.ts';
import { authorizeTag, chargerStart, type TagRules } from './charger-start.ts';

export const bookingChargerEvents = (db: Db, rules: TagRules): ChargerEvents => ({
  authorize: (chargerId, idTag) => authorizeTag(db, rules, chargerId, idTag),
  start: (chargerId, request, guard) => chargerStart(db, rules, chargerId, request, guard),
  connectorStatus: (chargerId, report) => onConnectorStatus(db, chargerId, report),
  meterValues: (chargerId, reading) => onMeterValues(db, chargerId, reading),
  stopped: (chargerId, stopped) => onStopTransaction(db, chargerId, stopped),
});
