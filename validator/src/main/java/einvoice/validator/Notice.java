package einvoice.validator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType0Font;

/**
 * A notice stamped across the top edge of every page, white on a red band above the layout's own top
 * margin, so no page can be shown or printed without it (the service's sandbox says so of a seller
 * nobody verified). The font is the layout's own, embedded, so a PDF/A stays one.
 */
final class Notice {
  private static final float BAND_HEIGHT = 16;
  private static final float MARGIN = 6;
  private static final float LARGEST_TEXT = 9;

  private Notice() {}

  static byte[] stamped(byte[] pdf, String notice) throws IOException {
    try (PDDocument document = Loader.loadPDF(pdf); InputStream fontFile = Notice.class.getResourceAsStream("/fonts/SourceSansPro-Bold.ttf")) {
      PDType0Font font = PDType0Font.load(document, fontFile);
      for (PDPage page : document.getPages()) {
        PDRectangle box = page.getMediaBox();
        float width = font.getStringWidth(notice) / 1000;
        float size = Math.min(LARGEST_TEXT, (box.getWidth() - 2 * MARGIN) / width);
        try (PDPageContentStream content = new PDPageContentStream(document, page, PDPageContentStream.AppendMode.APPEND, true, true)) {
          content.setNonStrokingColor(0.69f, 0f, 0.13f);
          content.addRect(0, box.getHeight() - BAND_HEIGHT, box.getWidth(), BAND_HEIGHT);
          content.fill();
          content.beginText();
          content.setNonStrokingColor(1f, 1f, 1f);
          content.setFont(font, size);
          content.newLineAtOffset((box.getWidth() - width * size) / 2, box.getHeight() - BAND_HEIGHT + (BAND_HEIGHT - size) / 2 + 1);
          content.showText(notice);
          content.endText();
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      document.save(out);
      return out.toByteArray();
    }
  }
}
