// The part of sql.js (which ships no types) that the example uses.
declare module 'sql.js' {
  interface QueryResult {
    columns: string[];
    values: unknown[][];
  }
  interface Database {
    exec(sql: string): QueryResult[];
    close(): void;
  }
  interface SqlJsStatic {
    Database: new () => Database;
  }
  interface InitOptions {
    instantiateWasm?(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): object;
  }
  export default function initSqlJs(options?: InitOptions): Promise<SqlJsStatic>;
}
