import { t } from '@lingui/core/macro';
import { ErrorSchema } from '../../../../shared/schemas/common';
import { FirestoreImportResultSchema, type FirestoreImportResult } from '../../../../shared/schemas/firestore-import';
import { ApiError, ContractMismatchError, UNREACHABLE_MESSAGE } from '../../../lib/api-client';

export const FIRESTORE_IMPORT_PATH = '/api/admin/import/firestore';

export interface FirestoreUpload {
  file: File;
  /** Import, rather than only check. */
  apply: boolean;
  createClasses: boolean;
}

/** How far an upload is: the share of the file sent (0 to 1), then null while the server works on it. */
export type UploadProgress = number | null;

/**
 * Sends an export as it is on disk (the browser reads it as it sends), through XMLHttpRequest
 * because fetch cannot tell how much of a large upload has gone. Errors are the API client's:
 * ApiError with the server's message, status 0 when it cannot be reached, ContractMismatchError
 * for an answer that does not match the contract.
 */
export function uploadFirestoreExport(upload: FirestoreUpload, onProgress: (progress: UploadProgress) => void): Promise<FirestoreImportResult> {
  const query = new URLSearchParams();
  if (upload.apply) query.set('apply', 'true');
  if (upload.createClasses) query.set('createClasses', 'true');
  const path = `${FIRESTORE_IMPORT_PATH}${query.size > 0 ? `?${query}` : ''}`;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', /\.(ndjson|jsonl)$/i.test(upload.file.name) ? 'application/x-ndjson' : 'application/json');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => onProgress(null);
    xhr.onerror = () => reject(new ApiError(0, UNREACHABLE_MESSAGE));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        const error = ErrorSchema.safeParse(body);
        const status = xhr.status;
        reject(new ApiError(status, error.success ? error.data.message : t`Request failed (${status})`));
        return;
      }
      const parsed = FirestoreImportResultSchema.safeParse(body);
      if (parsed.success) resolve(parsed.data);
      else reject(new ContractMismatchError(xhr.status, `POST ${FIRESTORE_IMPORT_PATH}`, parsed.error));
    };
    xhr.send(upload.file);
  });
}
