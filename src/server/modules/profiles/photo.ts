import { createHash } from 'node:crypto';
import { PHOTO_TYPE_MESSAGE } from '../../../shared/schemas/profiles';
import { badRequest, HttpError } from '../../http-error';

/** A photo as stored: re-encoded, without metadata, with a version that names its bytes. */
export interface StoredPhoto {
  contentType: string;
  data: Buffer;
  version: string;
}

/** The longest side a stored photo keeps: cards show 120 px, so this covers screens of any density. */
export const PHOTO_SIDE_MAX = 640;
/** An image of more pixels than this is refused before it is decoded (a small file can claim a huge picture). */
const INPUT_PIXELS_MAX = 40_000_000;
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp']);

/**
 * Decodes an uploaded photo (a base64 data URL, already checked for its label and size by the
 * schema), checks that its bytes really are PNG, JPEG or WebP, and re-encodes it as WebP: turned
 * upright, at most PHOTO_SIDE_MAX on its longest side, with every piece of metadata (EXIF, GPS,
 * comments, colour profiles) left behind. Anything sharp cannot read is the same 400 as a wrong type.
 */
export async function reencodePhoto(dataUrl: string): Promise<StoredPhoto> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  // Loaded on first use: the image library is large and most processes never need it.
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(bytes, { limitInputPixels: INPUT_PIXELS_MAX, failOn: 'error' });
    const { format } = await image.metadata();
    if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest(PHOTO_TYPE_MESSAGE);
    const data = await image
      .rotate()
      .resize({ width: PHOTO_SIDE_MAX, height: PHOTO_SIDE_MAX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
    return { contentType: 'image/webp', data, version: createHash('sha256').update(data).digest('hex').slice(0, 16) };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest(PHOTO_TYPE_MESSAGE);
  }
}
