/**
 * The kernel catalogue: what a GPU kernel's name says about its library, precision, tensor-core use
 * and the oldest GPU generation it runs on, kept as data ({@code kernel-catalogue.tsv}) that every
 * reader classifies through. See {@code docs/kernel-catalogue.md}.
 */
package dlproflint.extract.kernels;
