//! Height fields: PNG and custom-format files, elevation data given in the XML.
