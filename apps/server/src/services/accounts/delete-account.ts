import type { Db } from '../../db/database.js';
import { type ObjectStorage, within } from '../../lib/storage/storage.js';
import { createConversionRepository } from '../conversion/conversion-repository.js';
import { createFileRepository } from '../files/repository.js';
import { createUserRepository } from './user-repository.js';

/**
 * Deletes an account with everything saved in it: by its owner (DELETE /api/account/delete)
 * or by an administrator. The rows go in one transaction (all or nothing), after `first`
 * (the console's checks and audit entry; throwing in it deletes nothing); the bytes they
 * named only after it committed, so a failure never leaves rows without their audio. Bytes a
 * crash leaves behind are swept by the purges.
 */
export async function deleteAccount(
  db: Db,
  storage: ObjectStorage,
  id: string,
  first?: (trx: Db) => Promise<void>,
) {
  const removeBytes = await db.transaction().execute(async (trx) => {
    await first?.(trx);
    const audio = await createConversionRepository(trx, storage).removeForUser(id);
    const saved = await createFileRepository(trx, within(storage, 'saved')).removeAll(id);
    await createUserRepository(trx).delete(id);
    return [audio, saved];
  });
  for (const remove of removeBytes) await remove();
}
