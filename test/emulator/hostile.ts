// A hostile server's rows (POST /__emulator/entities): entity JSON stored exactly as sent — any id (`../../x`),
// any name (`..`, 5,000 bytes, `CON`) — and served by the entity routes (`GET /api/tables`, `/api/tables/{id}`…)
// until a reset, so clients can be tested against answers no real server should give.
import { ENTITY_TYPES, type EntityType } from './entity-store';
import { ApiError } from './http';
import type { EmulatorState } from './state';

export function storeAsSent(state: EmulatorState, body: unknown): unknown[] {
  const rows = Array.isArray(body) ? body : [body];
  for (const row of rows) {
    const r = row as Record<string, unknown> | null;
    if (!r || typeof r !== 'object' || !ENTITY_TYPES.includes(r['#type'] as EntityType) || typeof r.id !== 'string') {
      throw new ApiError(400, `Each row needs "#type" (one of ${ENTITY_TYPES.join(', ')}) and a string "id"`);
    }
  }
  for (const r of rows as Array<Record<string, unknown>>) state.entities.saved.set(String(r.id).toLowerCase(), { ...r, id: String(r.id).toLowerCase() });
  return rows;
}
