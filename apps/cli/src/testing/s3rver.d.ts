// s3rver ships no types: what the tests use of it.
declare module 's3rver' {
  export interface S3rverOptions {
    readonly address?: string;
    /** 0: any free port. */
    readonly port?: number;
    /** Where buckets and objects are kept. */
    readonly directory: string;
    readonly silent?: boolean;
    readonly configureBuckets?: readonly { readonly name: string }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
