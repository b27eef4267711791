"""The serial link: line-delimited JSON over pyserial, the serve side and the remote side."""
