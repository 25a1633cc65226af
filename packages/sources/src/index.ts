export { type HtmlToTextOptions, htmlToText } from './documents/html-to-text.js';
export { DOCUMENT_EXTENSIONS, readDocument, readDocuments } from './documents/read-documents.js';
export { type ReadDocxOptions, readDocx } from './documents/read-docx.js';
export { type HtmlPage, type ReadHtmlOptions, readHtml } from './documents/read-html.js';
export { readPdfText } from './documents/read-pdf.js';
