<?xml version="1.0" encoding="UTF-8"?>
<!--
  The PDF's XSL-FO: KoSIT's layout (xr-pdf.xsl), with our labels for its localisation lookup, number
  formats for every language we offer, and the intermediate form tidied (common.xsl). What is declared
  here takes precedence over what the import declares.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:xr="urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1"
                xmlns:er="urn:einvoice:render"
                exclude-result-prefixes="xs xr er">

  <xsl:import href="../stylesheets/xr-pdf.xsl"/>
  <xsl:include href="common.xsl"/>

  <!-- The layout formats numbers by the decimal format named as the language; it declares de and en only. -->
  <xsl:decimal-format name="fr" decimal-separator="," grouping-separator="&#160;" NaN=""/>
  <xsl:decimal-format name="nl" decimal-separator="," grouping-separator="." NaN=""/>

  <!-- What the layout's lookup (xrf:_) reads: one entry per key, our label for this document and language. -->
  <xsl:variable name="l10n-doc">
    <properties>
      <xsl:for-each-group select="$er:labels[@pdf]" group-by="tokenize(@pdf)">
        <entry key="{current-grouping-key()}">
          <xsl:value-of select="er:pick(current-group())"/>
        </entry>
      </xsl:for-each-group>
    </properties>
  </xsl:variable>

  <xsl:template match="/">
    <xsl:apply-templates select="er:tidy(.)/xr:invoice"/>
  </xsl:template>

  <!-- The sum of third-party payments is Germany's extension (BG-DEX-09); a document without any shows none. -->
  <xsl:template mode="value-list-entry" match="/xr:invoice[not(xr:THIRD_PARTY_PAYMENT)]"/>
</xsl:stylesheet>
