import { TreeAgentError } from '@treeagent/core';

/**
 * The text of a PDF with pdf.js, its pages separated by form feeds (`\f`), so `splitText` gives each
 * chunk its page.
 */
export async function readPdfText(data: Uint8Array, name: string): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  try {
    const document = await getDocument({
      data: new Uint8Array(data),
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(
        content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : '')).join(''),
      );
    }
    await document.destroy();
    return pages.join('\f');
  } catch (error) {
    throw new TreeAgentError('INVALID_INPUT', `Cannot read the PDF ${name}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
