/**
 * @file link.h
 * @brief Link rates from first principles: PCIe 1-6, NVLink 1-5, InfiniBand EDR-XDR,
 *        Ethernet 10-800G with RoCEv2 or TCP overhead, AMD xGMI and Intel UPI.
 *
 * A link is described by its kind, generation and width (lanes, links or ports). From
 * the signalling rate per lane and the line encoding this module derives the data rate
 * per direction ("line" rate), then the share of it that carries payload for a given
 * packet payload size ("protocol" efficiency). Rates per direction and both directions
 * together are kept apart: every field that adds both directions ends in @c _bidir.
 *
 * @code
 * hwfit_link_in in;
 * hwfit_link_out out;
 * hwfit_link_init(&in);                 // PCIe 5.0 x16, 256-byte payloads
 * hwfit_link_rate(&in, &out);           // out.line_bytes_per_s = 63.0e9
 * hwfit_link_parse("400g-roce", &in);   // 400GbE RoCEv2, 4096-byte MTU
 * @endcode
 */
#ifndef HWFIT_LINK_H
#define HWFIT_LINK_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup link Link rates
 *  @brief Per-direction and bidirectional rates of interconnect links. Thread safety:
 *  all functions are reentrant.
 *  @{ */

/** @brief The kind of link. */
typedef enum hwfit_link_kind {
    HWFIT_LINK_PCIE = 0,       /**< PCI Express; width in lanes (1, 2, 4, 8, 16). */
    HWFIT_LINK_NVLINK = 1,     /**< NVIDIA NVLink; width in links (sub-links) per GPU. */
    HWFIT_LINK_INFINIBAND = 2, /**< InfiniBand 4x ports; generation is ::hwfit_link_ib_speed. */
    HWFIT_LINK_ETHERNET = 3,   /**< Ethernet ports; speed in @c port_bits_per_s. */
    HWFIT_LINK_XGMI = 4,       /**< AMD xGMI / Infinity Fabric x16 links (EPYC sockets, Instinct). */
    HWFIT_LINK_UPI = 5         /**< Intel Ultra Path Interconnect links between Xeon sockets. */
} hwfit_link_kind;

/** @brief InfiniBand speed grades (4x ports), used as the generation of an IB link. */
typedef enum hwfit_link_ib_speed {
    HWFIT_LINK_IB_EDR = 1, /**< EDR: 4 x 25 Gb/s = 100 Gb/s. */
    HWFIT_LINK_IB_HDR = 2, /**< HDR: 4 x 50 Gb/s = 200 Gb/s. */
    HWFIT_LINK_IB_NDR = 3, /**< NDR: 4 x 100 Gb/s = 400 Gb/s. */
    HWFIT_LINK_IB_XDR = 4  /**< XDR: 4 x 200 Gb/s = 800 Gb/s. */
} hwfit_link_ib_speed;

/** @brief Transport carried over Ethernet, which sets the per-packet overhead. */
typedef enum hwfit_link_transport {
    HWFIT_LINK_TRANSPORT_ROCEV2 = 0, /**< RDMA over Converged Ethernet v2 (UDP/IPv4). */
    HWFIT_LINK_TRANSPORT_TCP = 1     /**< TCP/IPv4 with timestamps (sockets). */
} hwfit_link_transport;

/** @brief A link to rate. Fill with ::hwfit_link_init or ::hwfit_link_parse. */
typedef struct hwfit_link_in {
    hwfit_link_kind kind; /**< Kind of link. Default ::HWFIT_LINK_PCIE. */
    /** PCIe 1-6; NVLink 1-5; InfiniBand a ::hwfit_link_ib_speed; xGMI 3 (32 Gb/s lanes,
     *  EPYC 9004/9005 and Instinct MI300); UPI 1 (10.4 GT/s), 2 (16 GT/s), 3 (24 GT/s);
     *  ignored for Ethernet. Default 5. */
    uint32_t generation;
    /** PCIe lanes (1, 2, 4, 8, 16); NVLink links (1-18); InfiniBand and Ethernet ports;
     *  xGMI and UPI links (1-8). Rates are for all of them together. Default 16. */
    uint32_t width;
    /** Ethernet port speed, bits/s: 10, 25, 40, 50, 100, 200, 400 or 800 Gb/s. Ignored
     *  for other kinds. Default 400e9. */
    double port_bits_per_s;
    /** Ethernet transport (RoCEv2 or TCP). Default ::HWFIT_LINK_TRANSPORT_ROCEV2. */
    hwfit_link_transport transport;
    /** Payload bytes per packet, or 0 for the kind's default. PCIe: Max Payload Size
     *  (128-4096, default 256). NVLink: bytes per write (32-256, default 128, what SM
     *  stores use). InfiniBand and RoCEv2: path MTU (256-4096, default 4096). TCP: the
     *  Ethernet MTU (576-9216, default 1500). Unused for xGMI and UPI. Default 0. */
    double payload_bytes;
} hwfit_link_in;

/** @brief Rates of a link. Per direction unless the name ends in @c _bidir. */
typedef struct hwfit_link_out {
    char name[48];                 /**< For people, e.g. "PCIe 5.0 x16", "400GbE RoCEv2". */
    uint32_t lanes;                /**< Serial lanes per link or port (PCIe: the width). */
    double lane_raw_bits_per_s;    /**< Signalling rate of one lane, bits/s (PCIe 5.0: 32e9). */
    double encoding_efficiency;    /**< Line encoding and FEC share: 128/130, 8/10, 64/66... */
    double line_bytes_per_s;       /**< Data rate after encoding, one direction, bytes/s. */
    double line_bytes_per_s_bidir; /**< Both directions together, bytes/s. */
    double payload_bytes;          /**< Payload per packet used for the protocol share, bytes. */
    double overhead_bytes;         /**< Headers and framing per packet on the wire, bytes. */
    double protocol_efficiency;    /**< payload / (payload + overhead) (and flit share, PCIe 6). */
    double payload_bytes_per_s;    /**< line x protocol efficiency, one direction, bytes/s. */
    double payload_bytes_per_s_bidir; /**< Both directions together, bytes/s. */
} hwfit_link_out;

/**
 * @brief Fill a link with the defaults: PCIe 5.0 x16, default payload (256 B).
 * @param[out] in The link to fill; NULL is ignored.
 */
HWFIT_API void hwfit_link_init(hwfit_link_in *in);

/**
 * @brief Rates of a link.
 * @param[in]  in  The link; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Its rates; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     rated.
 * @retval HWFIT_EINVAL @p in or @p out is NULL, or @c kind or @c transport is not a value
 *                      of its enum.
 * @retval HWFIT_EDOM   a generation, width, port speed or payload size outside the ranges
 *                      documented in ::hwfit_link_in (e.g. PCIe x3, NVLink 6, 300 GbE).
 */
HWFIT_API hwfit_status hwfit_link_rate(const hwfit_link_in *in, hwfit_link_out *out);

/**
 * @brief Check a link for ::hwfit_link_rate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_link_rate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_link_rate returns (given a non-NULL output).
 * @param[in]  in      The link; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the link
 *                     is valid; may be NULL.
 * @return The status of ::hwfit_link_rate for @p in.
 */
HWFIT_API hwfit_status hwfit_link_validate(const hwfit_link_in *in, hwfit_problem *problem);

/**
 * @brief Read a link from a short name. Case-insensitive. Accepted forms:
 *
 * | form | meaning | examples |
 * |---|---|---|
 * | pcie\<gen\>x\<lanes\> | PCIe generation and width | pcie5x16, pcie4x8 |
 * | nvlink\<gen\>[x\<links\>] | NVLink generation, links (default 1) | nvlink4x18, nvlink5 |
 * | [\<n\>x]\<speed\>g-roce, -tcp, -ib | n ports of Ethernet RoCEv2 / TCP, or InfiniBand | 400g-roce, 2x400g-roce, 8x400g-ib |
 * | ib-edr, ib-hdr, ib-ndr, ib-xdr | one InfiniBand 4x port | ib-ndr |
 * | xgmi\<gen\>[x\<links\>], upi\<gen\>[x\<links\>] | socket links | xgmi3x4, upi2x3 |
 *
 * InfiniBand speeds map 100, 200, 400 and 800 Gb/s to EDR, HDR, NDR and XDR. The
 * payload size is set to 0 (the kind's default).
 *
 * @param[in]  text The name; NULL gives ::HWFIT_EINVAL.
 * @param[out] in   The link; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     read.
 * @retval HWFIT_EINVAL @p text or @p in is NULL.
 * @retval HWFIT_EPARSE not one of the forms above.
 * @retval HWFIT_EDOM   a well-formed name with a generation, width or speed that does not
 *                      exist (pcie7x16, pcie5x3, 300g-ib).
 */
HWFIT_API hwfit_status hwfit_link_parse(const char *text, hwfit_link_in *in);

/**
 * @brief Short name of a link kind: "pcie", "nvlink", "infiniband", "ethernet", "xgmi", "upi".
 * @param[in] kind Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_link_kind_name(hwfit_link_kind kind);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_LINK_H */
