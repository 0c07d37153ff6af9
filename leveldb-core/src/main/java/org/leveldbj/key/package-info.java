/**
 * Internal keys: how the engine tags every user key with a sequence number and a value type.
 *
 * <h2>Byte layout</h2>
 * <pre>
 * internal key := user_key  fixed64(sequence &lt;&lt; 8 | type)
 * type         := 0x01 (value) | 0x00 (deletion)
 * sequence     := 56-bit unsigned number, 0 .. 2^56 - 1
 * </pre>
 * Internal keys sort by user key ascending (under the user's comparator), then by sequence
 * descending, then by type descending, so that the newest version of a key comes first.
 *
 * <p>Thread safety: every type here is immutable or stateless.
 */
package org.leveldbj.key;
