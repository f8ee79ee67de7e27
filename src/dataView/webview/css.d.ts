// CSS imported by the webview scripts: bundled as a stylesheet (the data view) or as text (the notebook's renderer).
declare module '*.css' {
  const text: string;
  export default text;
}
