import { chargerIdParam, localListSendResponse, localListVersionResponse, noFieldsBody } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { readLocalListVersion, sendChargerLocalList } from './local-list.service.ts';
import { OPERATION_ERRORS } from './operation.routes.ts';

const tags = ['charger operations'];

/**
 * The local authorization list of one charger (issue 32 §4): admin and callcenter (charger.local-list), on the
 * chargers of their scope. Send Local List All is a batch (command.routes.ts).
 */
export const chargerLocalListRoutes =
  ({ db, config, commands }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/charger/:id/local-list',
      {
        config: { permission: 'charger.local-list' },
        schema: {
          tags,
          description:
            "SendLocalList (Full) of the members' id tags valid at this charger (a private station's: its " +
            "members only), at the charger's last accepted version + 1; a list longer than the charger's " +
            'SendLocalListMaxLength follows as Differential messages. `status` is the charger’s own word ' +
            '(Accepted, Failed, NotSupported, VersionMismatch); `listVersion` the version it now holds from us. ' +
            '409 offline (at once) or more tags than LocalAuthListMaxLength (nothing sent), 504 no answer, ' +
            '502 a CALLERROR, 404 outside your scope.',
          params: chargerIdParam,
          body: noFieldsBody,
          response: { 200: localListSendResponse, ...OPERATION_ERRORS },
        },
      },
      (request) =>
        sendChargerLocalList(
          { db, config, commands, scope: scopeOf(authOf(request).user), actor: actorOf(request) },
          request.params.id,
        ),
    );
    app.get(
      '/api/charger/:id/local-list',
      {
        config: { permission: 'charger.local-list' },
        schema: {
          tags,
          description:
            'GetLocalListVersion: the charger’s `listVersion` (0 none, -1 no local list support), beside ' +
            '`sentVersion` and `sentAt`, the last version it accepted from us. A CALLERROR NotImplemented or ' +
            'NotSupported answers `status` NotSupported. 409 offline, 504 no answer, 404 outside your scope.',
          params: chargerIdParam,
          response: { 200: localListVersionResponse, ...OPERATION_ERRORS },
        },
      },
      (request) =>
        readLocalListVersion(
          { db, config, commands, scope: scopeOf(authOf(request).user) },
          request.params.id,
        ),
    );
  };
