import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { checkKey, type ObjectStorage } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Any S3-compatible service (MinIO, Ceph radosgw, R2, …); AWS itself when absent. */
  endpoint?: string | undefined;
  /** Without keys the SDK's default chain applies (instance role, AWS_* variables, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `bucket.host/key` (virtual-hosted) by default; most self-hosted services need path style. */
  forcePathStyle?: boolean;
}

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** Objects in an S3-compatible bucket through the official AWS SDK. */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint && { endpoint: options.endpoint }),
    ...(options.credentials && { credentials: options.credentials }),
    forcePathStyle: options.forcePathStyle ?? false,
    // Checksums only where S3 requires them: a streamed body then goes as plain bytes of a
    // known length, which every S3-compatible service reads (not all read aws-chunked).
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: checkKey(key),
          Body: bytes,
          ...(contentType && { ContentType: contentType }),
        }),
      );
    },
    async putStream(key, stream, length, contentType) {
      // A stream of a known length goes up as one PUT (S3 needs the length before the body);
      // one that ends short or runs long stops the upload instead of leaving it waiting.
      const abort = new AbortController();
      let failure: Error | undefined;
      const body = stream.pipe(exactly(key, length));
      const stop = (error: Error) => {
        failure ??= error;
        abort.abort();
      };
      body.on('error', stop);
      stream.on('error', stop);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: checkKey(key),
            Body: body,
            ContentLength: length,
            ...(contentType && { ContentType: contentType }),
          }),
          { abortSignal: abort.signal },
        );
      } catch (error) {
        throw failure ?? error;
      }
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: checkKey(key) }));
        return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async read(key, range) {
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: checkKey(key),
            ...(range && { Range: `bytes=${range.start}-${range.end}` }),
          }),
        );
        // In Node.js the SDK's body is a readable stream of the response.
        return object.Body as Readable;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async list(prefix) {
      const found: Array<{ key: string; modifiedAt: Date }> = [];
      const pages = paginateListObjectsV2({ client }, { Bucket, Prefix: `${checkKey(prefix)}/` });
      for await (const page of pages) {
        for (const object of page.Contents ?? []) {
          if (object.Key)
            found.push({ key: object.Key, modifiedAt: object.LastModified ?? new Date(0) });
        }
      }
      return found;
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close: () => client.destroy(),
  };
}

/**
 * Passes a stream on, failing it when it ends short of (or runs past) `length` bytes: the
 * upload then stops at once instead of leaving the service waiting for the rest.
 */
function exactly(key: string, length: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(
        seen > length ? new Error(`${key}: more than the ${length} bytes announced`) : null,
        chunk,
      );
    },
    flush(done) {
      done(seen === length ? null : new Error(`${key}: ${seen} bytes of the ${length} announced`));
    },
  });
}
